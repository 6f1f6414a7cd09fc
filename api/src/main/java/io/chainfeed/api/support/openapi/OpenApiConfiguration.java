package io.chainfeed.api.support.openapi;

import io.chainfeed.api.support.server.PathGroups;
import io.chainfeed.api.support.server.RateLimitFields;
import io.chainfeed.platform.web.ProblemDetailsHandler;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.examples.Example;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.info.Contact;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.info.License;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.oas.models.servers.Server;
import io.swagger.v3.oas.models.tags.Tag;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.AntPathMatcher;

/**
 * The OpenAPI 3.0 description at {@code /v3/api-docs}: servers, the security schemes
 * (reader, editor and admin bearer keys, the partner {@code key} parameter), the RFC 9457
 * problem details each operation can answer (with their {@code type} URIs), the
 * {@code Retry-After} header of 429 and 503, the rate-limit fields of
 * draft-ietf-httpapi-ratelimit-headers ({@code RateLimit}, {@code RateLimit-Policy}) on
 * every answer a per-client or per-key limit applies to, and bounds on every string,
 * integer and array that springdoc leaves unbounded ({@link #bound}). The build writes it
 * to {@code api/target/openapi/openapi.json} and lints it (Spectral with the OWASP
 * ruleset, Redocly: {@code build/api-lint}).
 */
@Configuration
public class OpenApiConfiguration {

    /** The security scheme of READER keys ({@code Authorization: Bearer cf_...}). */
    public static final String READER = "readerKey";

    /** The security scheme of admin keys. */
    public static final String ADMIN = "adminKey";

    /** The security scheme of editor keys (ingest's signal endpoints). */
    public static final String EDITOR = "editorKey";

    /** The security scheme of PARTNER keys: the {@code key} query parameter. */
    public static final String PARTNER = "partnerKey";

    /** The component name of the problem detail schema. */
    static final String PROBLEM = "Problem";

    /** Longest string a parameter takes where its own annotation says nothing. */
    static final int PARAMETER_MAX_LENGTH = 2000;

    /** Longest string an answer holds where its record says nothing. */
    static final int TEXT_MAX_LENGTH = 1_000_000;

    /** Most items of an array where its record says nothing. */
    static final int MAX_ITEMS = 10_000;

    /** Problem types by status: the last segment of their {@code type} URI. */
    static final Map<String, List<String>> PROBLEM_TYPES = Map.of("400",
            List.of("invalid-parameter", "invalid-cursor", "invalid-size", "invalid-time-range", "invalid-as-of",
                    "invalid-selector", "unknown-company", "query-too-long", "invalid-key-request",
                    "invalid-target-url", "invalid-description", "too-many-points", "subscription-limit"),
            "401", List.of("unauthorized"), "403",
            List.of("reader-key-required", "not-a-partner-key", "origin-not-allowed", "subscription-disabled"), "404",
            List.of("not-found"), "410", List.of("cursor-expired"), "429", List.of("too-many-requests"), "500",
            List.of("internal-error"), "501", List.of("unsupported-format"), "502", List.of("search-failed"), "503",
            List.of("busy", "search-unavailable", "chain-unavailable", "webhooks-unavailable"));

    private static final Map<String, String> STATUS_TEXT = Map.of("400", "Bad request", "401", "Unauthorized", "403",
            "Forbidden", "404", "Not found", "410", "Gone", "429", "Too many requests", "500", "Internal error", "501",
            "Not implemented", "502", "Bad gateway", "503", "Service unavailable");

    /**
     * @return the description's info, servers and shared components
     */
    @Bean
    OpenAPI chainfeedOpenApi() {
        Components components = new Components()
            .addSecuritySchemes(READER,
                    bearer("A READER key issued by an admin (`cf_<id>_<secret>`): webhook subscriptions."))
            .addSecuritySchemes(EDITOR, bearer("An editor key: ingest's signal endpoints (port 8081)."))
            .addSecuritySchemes(ADMIN,
                    bearer("An admin key, configured as its SHA-256 hash: issuing and revoking " + "API keys."))
            .addSecuritySchemes(PARTNER,
                    new SecurityScheme().type(SecurityScheme.Type.APIKEY)
                        .in(SecurityScheme.In.QUERY)
                        .name("key")
                        .description("A publishable PARTNER key, bound to the web origins allowed to use it "
                                + "(checked against `Origin`): the widget's data, stream, embeds and oEmbed."))
            .addHeaders("Retry-After",
                    new Header().description("Seconds to wait before trying again (RFC 9110 section 10.2.3).")
                        .schema(new IntegerSchema().format("int32")
                            .minimum(BigDecimal.ONE)
                            .maximum(BigDecimal.valueOf(86_400))));
        return new OpenAPI()
            .info(new Info().title("chainfeed API")
                .version("v1")
                .description("Search, reads, the chain model (now and as of an instant), topic feeds, webhook "
                        + "subscriptions, API keys and the widget's data. Errors are RFC 9457 problem details "
                        + "(`application/problem+json`) whose `type` is under `" + ProblemDetailsHandler.TYPE_BASE
                        + "`. Research, not advice.")
                .contact(new Contact().name("chainfeed").url("https://chainfeed.io"))
                .license(new License().name("Proprietary").url("https://chainfeed.io/terms")))
            .servers(List.of(
                    new Server().url("https://api.chainfeed.io")
                        .description("production")
                        .extensions(Map.of("x-internal", false)),
                    new Server().url("http://localhost:8080")
                        .description("a local stack (`./chainfeed run`)")
                        .extensions(Map.of("x-internal", true))))
            .tags(List.of(new Tag().name("search").description("Search, suggest and the reference data's indexes"),
                    new Tag().name("reads").description("One read with its tags and evidence"),
                    new Tag().name("chain").description("The chain model: layers, causes, companies, history"),
                    new Tag().name("feeds").description("Atom, JSON Feed and Server-Sent Events of a topic"),
                    new Tag().name("subscriptions").description("Webhook subscriptions under a READER key"),
                    new Tag().name("keys").description("Issuing and revoking API keys under an admin key"),
                    new Tag().name("widget").description("The embeddable widget's data, stream, embeds and oEmbed")))
            .components(components);
    }

    private static Header rateLimitField(String description, String pattern) {
        return new Header()
            .description(description + " (draft-ietf-httpapi-ratelimit-headers, version 10; policies: `"
                    + RateLimitFields.CLIENT + "`, the per-client limit of the public paths, `" + RateLimitFields.ADMIN
                    + "`, the per-client limit of the admin key paths, and `" + RateLimitFields.KEY
                    + "`, the API key's own limit; one item per limit that applied to the request. Absent on a request "
                    + "straight from a trusted proxy, which no per-client limit applies to.)")
            .schema(new StringSchema().maxLength(200).pattern(pattern));
    }

    private static SecurityScheme bearer(String description) {
        return new SecurityScheme().type(SecurityScheme.Type.HTTP)
            .scheme("bearer")
            .bearerFormat("cf_<id>_<secret>")
            .description(description);
    }

    @SuppressWarnings("rawtypes")
    private static Schema problemSchema() {
        Map<String, Schema> props = new LinkedHashMap<>();
        props.put("type", new StringSchema().format("uri")
            .maxLength(200)
            .description(
                    "identifies the problem type: `" + ProblemDetailsHandler.TYPE_BASE + "<type>` or `about:blank`"));
        props.put("title",
                new StringSchema().maxLength(200).pattern("^[^\\r\\n]*$").description("short, fixed per type"));
        props.put("status",
                new IntegerSchema().format("int32")
                    .minimum(BigDecimal.valueOf(400))
                    .maximum(BigDecimal.valueOf(599))
                    .description("the HTTP status"));
        props.put("detail", new StringSchema().maxLength(4000).description("what is wrong with this request"));
        props.put("instance", new StringSchema().format("uri-reference").maxLength(2000));
        ObjectSchema s = new ObjectSchema();
        s.setProperties(props);
        s.setRequired(List.of("type", "title", "status"));
        s.setDescription("An RFC 9457 problem detail; some types add members (`company` and `closeMatches` of "
                + "`unknown-company`, `errors` of invalid input).");
        return s;
    }

    /**
     * @return the customizer that completes every operation: security, problem answers
     * and bounds
     */
    @Bean
    OpenApiCustomizer chainfeedOperations() {
        return api -> {
            if (api.getComponents() == null) {
                api.setComponents(new Components());
            }
            api.getComponents().addSchemas(PROBLEM, problemSchema());
            api.getComponents()
                .addHeaders(RateLimitFields.RATE_LIMIT_POLICY,
                        rateLimitField("Each limit's quota `q` per window of `w` seconds, e.g. `\"key\";q=60;w=60`.",
                                "^\"[a-z]+\";q=\\d+;w=\\d+(, \"[a-z]+\";q=\\d+;w=\\d+)*$"))
                .addHeaders(RateLimitFields.RATE_LIMIT,
                        rateLimitField(
                                "Each limit's requests left `r` and seconds `t` until its quota is whole "
                                        + "again, e.g. `\"key\";r=59;t=1`.",
                                "^\"[a-z]+\";r=\\d+;t=\\d+(, \"[a-z]+\";r=\\d+;t=\\d+)*$"));
            if (api.getTags() != null) {
                Map<String, Tag> byName = new LinkedHashMap<>();
                api.getTags().forEach(t -> byName.putIfAbsent(t.getName(), t));
                api.setTags(new ArrayList<>(byName.values()));
            }
            if (api.getPaths() != null) {
                api.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, op) -> {
                    String scheme = scheme(path);
                    if (scheme != null) {
                        op.setSecurity(List.of(new SecurityRequirement().addList(scheme)));
                        removeParameter(op, scheme.equals(PARTNER) ? "key" : "Authorization");
                    }
                    else {
                        // public: an explicit empty requirement, not an oversight
                        op.setSecurity(List.of());
                    }
                    errors(path, method, op, scheme);
                    if (op.getParameters() != null) {
                        op.getParameters().forEach(OpenApiConfiguration::bound);
                    }
                    op.getResponses()
                        .values()
                        .stream()
                        .filter(r -> r.getContent() != null)
                        .flatMap(r -> r.getContent().values().stream())
                        .forEach(m -> bound(m.getSchema(), TEXT_MAX_LENGTH,
                                Collections.newSetFromMap(new IdentityHashMap<>())));
                }));
            }
            if (api.getComponents() != null && api.getComponents().getSchemas() != null) {
                Set<Schema<?>> seen = Collections.newSetFromMap(new IdentityHashMap<>());
                api.getComponents().getSchemas().forEach((name, s) -> {
                    if (!PROBLEM.equals(name)) {
                        bound(s, TEXT_MAX_LENGTH, seen);
                    }
                });
            }
        };
    }

    /**
     * @param path an operation's path
     * @return the security scheme it needs, null for a public one
     */
    static String scheme(String path) {
        if (path.startsWith("/api/v1/subscriptions")) {
            return READER;
        }
        if (path.startsWith("/api/v1/admin/")) {
            return ADMIN;
        }
        if (path.startsWith("/widget/v1/data") || path.startsWith("/widget/v1/stream") || path.startsWith("/embed")
                || path.equals("/oembed")) {
            return PARTNER;
        }
        return null;
    }

    /**
     * @param path an operation's path
     * @return whether a per-client limit applies to it with the default settings: the
     * public paths' ({@link PathGroups#PUBLIC_PATHS}) or the admin key paths'
     * ({@link PathGroups#ADMIN_PATHS}), which run before the handler and so before any
     * 401 or 403
     */
    static boolean clientLimited(String path) {
        AntPathMatcher matcher = new AntPathMatcher();
        return PathGroups.PUBLIC_PATHS.stream().anyMatch(p -> matcher.match(p, path))
                || PathGroups.ADMIN_PATHS.stream().anyMatch(p -> matcher.match(p, path));
    }

    private static void removeParameter(Operation op, String name) {
        if (op.getParameters() != null) {
            op.getParameters().removeIf(p -> name.equals(p.getName()));
            if (op.getParameters().isEmpty()) {
                op.setParameters(null);
            }
        }
    }

    private static void errors(String path, PathItem.HttpMethod method, Operation op, String scheme) {
        ApiResponses responses = op.getResponses() == null ? new ApiResponses() : op.getResponses();
        boolean takesInput = (op.getParameters() != null && !op.getParameters().isEmpty())
                || op.getRequestBody() != null || scheme != null;
        if (takesInput) {
            problem(responses, "400");
        }
        if (scheme != null) {
            problem(responses, "401");
            if (!scheme.equals(ADMIN)) {
                problem(responses, "403");
            }
            problem(responses, "429");
        }
        boolean clientLimited = clientLimited(path);
        if (clientLimited) {
            problem(responses, "429");
        }
        if (path.contains("{") || path.equals("/oembed")) {
            // oEmbed 1.0 section 2.3.4.1: a URL the provider has no answer for is a 404
            problem(responses, "404");
        }
        problem(responses, "500");
        if (path.equals("/oembed")) {
            // oEmbed 1.0 section 2.3.4.1: a format the provider does not serve is a 501
            problem(responses, "501");
        }
        if (path.startsWith("/api/v1/") || path.startsWith("/widget/")) {
            problem(responses, "503");
        }
        boolean keyLimited = scheme != null && !scheme.equals(ADMIN);
        responses.forEach((status, r) -> {
            if (!status.startsWith("2") && !status.startsWith("4")) {
                return;
            }
            // the per-client limit runs before the handler; the key's once the key is
            // known and allowed here
            boolean keyTaken = keyLimited && !status.equals("401") && !status.equals("403");
            if (clientLimited || keyTaken) {
                for (String h : List.of(RateLimitFields.RATE_LIMIT_POLICY, RateLimitFields.RATE_LIMIT)) {
                    r.addHeaderObject(h, new Header().$ref("#/components/headers/" + h));
                }
            }
        });
        op.setResponses(responses);
    }

    private static void problem(ApiResponses responses, String status) {
        List<String> types = PROBLEM_TYPES.get(status);
        String first = types.get(0);
        ApiResponse r = new ApiResponse()
            .description(STATUS_TEXT.get(status) + ": a problem detail of type "
                    + String.join(", ",
                            types.stream().map(t -> "`" + ProblemDetailsHandler.TYPE_BASE + t + "`").toList()))
            .content(new Content().addMediaType("application/problem+json",
                    new MediaType().schema(new Schema<>().$ref("#/components/schemas/" + PROBLEM))
                        .addExamples(first, new Example().value(example(first, status)))));
        if (status.equals("429") || status.equals("503")) {
            r.addHeaderObject("Retry-After", new Header().$ref("#/components/headers/Retry-After"));
        }
        responses.putIfAbsent(status, r);
    }

    /** A problem detail of the type, members in RFC 9457's order. */
    private static Map<String, Object> example(String type, String status) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", ProblemDetailsHandler.TYPE_BASE + type);
        m.put("title", STATUS_TEXT.get(status));
        m.put("status", Integer.parseInt(status));
        m.put("detail", "what went wrong with this request");
        return m;
    }

    /** Bounds a parameter's schema where its annotations leave it unbounded. */
    @SuppressWarnings("rawtypes")
    static void bound(Parameter p) {
        Schema s = p.getSchema();
        if (s != null) {
            bound(s, PARAMETER_MAX_LENGTH, Collections.newSetFromMap(new IdentityHashMap<>()));
        }
    }

    /**
     * Bounds a schema and the schemas inside it: a string gets {@code maxLength} (and
     * when nothing else restricts it, a pattern refusing control characters), an integer
     * its format and a minimum of 0 and maximum of its format, an array
     * {@value #MAX_ITEMS} items at most.
     */
    @SuppressWarnings({ "rawtypes", "unchecked" })
    static void bound(Schema s, int maxLength, Set<Schema<?>> seen) {
        if (s == null || !seen.add(s) || s.get$ref() != null) {
            return;
        }
        String type = s.getType();
        if ("string".equals(type)) {
            if (s.getMaxLength() == null && s.getEnum() == null) {
                s.setMaxLength(maxLength);
            }
            if (s.getPattern() == null && s.getFormat() == null && s.getEnum() == null) {
                s.setPattern("^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F]*$");
            }
        }
        else if ("integer".equals(type)) {
            boolean int64 = "int64".equals(s.getFormat());
            if (s.getFormat() == null) {
                s.setFormat("int32");
            }
            if (s.getMinimum() == null) {
                s.setMinimum(BigDecimal.ZERO);
            }
            if (s.getMaximum() == null) {
                s.setMaximum(BigDecimal.valueOf(int64 ? Long.MAX_VALUE : Integer.MAX_VALUE));
            }
        }
        else if ("array".equals(type) || s instanceof ArraySchema) {
            if (s.getMaxItems() == null) {
                s.setMaxItems(MAX_ITEMS);
            }
            bound(s.getItems(), maxLength, seen);
        }
        if (s.getProperties() != null) {
            ((Map<String, Schema>) s.getProperties()).values().forEach(p -> bound(p, maxLength, seen));
        }
        if (s.getAdditionalProperties() instanceof Schema extra) {
            bound(extra, maxLength, seen);
        }
        for (List<Schema> list : new List[] { s.getAllOf(), s.getOneOf(), s.getAnyOf() }) {
            if (list != null) {
                list.forEach(x -> bound(x, maxLength, seen));
            }
        }
    }

}
