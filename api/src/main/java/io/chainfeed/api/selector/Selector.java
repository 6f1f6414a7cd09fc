package io.chainfeed.api.selector;

import co.elastic.clients.elasticsearch._types.FieldValue;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch._types.query_dsl.QueryBuilders;
import io.chainfeed.avro.CompanyTag;
import io.chainfeed.avro.LayerTag;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.ReadKind;
import io.chainfeed.avro.TermTag;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * A topic a reader subscribes to: a boolean expression over the tags of a read.
 *
 * <p>
 * Grammar (keywords case-insensitive; two terms side by side mean AND; NOT binds
 * tightest, then AND, then OR): <pre>
 * selector := or
 * or       := and ( "OR" and )*
 * and      := not ( ["AND"] not )*
 * not      := "NOT" not | atom
 * atom     := "(" or ")" | "all" | field ":" value
 * field    := "layer" | "company" | "term" | "kind"
 * </pre> {@code layer:<id>} matches reads tagged with that chain layer;
 * {@code company:<symbol>} reads tagged with that company: once resolved
 * ({@link #resolveCompanies}) any listing's display symbol ({@code TSM},
 * {@code 2330.TW}), a MIC-qualified symbol ({@code XNYS:TSM}), the company id or a
 * one-word name or alias, in any case; unresolved, the display symbol or company id as
 * written; {@code term:<slug>} the term's own read and every read tagged with the term;
 * {@code kind:term} or {@code kind:signal} or {@code kind:state} (a change of a chain
 * layer's status) the kind of read; {@code all} every read.
 *
 * <p>
 * The same expression is evaluated three ways that must agree: on an Avro {@link Read}
 * (live pushes), on an indexed read document, and as an Elasticsearch query over the
 * {@code chainfeed-reads} alias (feed pages). Instances are immutable and thread-safe.
 */
public final class Selector {

    /** Longest selector text accepted, in characters. */
    public static final int MAX_LENGTH = 512;

    /** Most field tests in one selector. */
    public static final int MAX_TESTS = 32;

    /** Deepest nesting of parentheses and NOTs. */
    public static final int MAX_DEPTH = 16;

    private static final Pattern SLUG = Pattern.compile("[a-z0-9][a-z0-9-]{0,79}");

    private static final Pattern SYMBOL = Pattern
        .compile("[A-Za-z0-9][A-Za-z0-9.\\-]{0,79}(:[A-Za-z0-9][A-Za-z0-9.\\-]{0,23})?");

    /** The kinds of field test. */
    public enum Field {

        LAYER, COMPANY, TERM, KIND;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }

    }

    private sealed interface Node permits All, Test, And, Or, Not {

    }

    private record All() implements Node {
    }

    /**
     * One field test. {@code companyId} and {@code symbols} are set once a company test
     * is resolved ({@link #resolveCompanies}): then {@code value} is the company's
     * canonical symbol and the test matches the company id or any of its listings'
     * display symbols.
     */
    private record Test(Field field, String value, String companyId, List<String> symbols) implements Node {
        Test(Field field, String value) {
            this(field, value, null, List.of());
        }
    }

    private record And(List<Node> parts) implements Node {
    }

    private record Or(List<Node> parts) implements Node {
    }

    private record Not(Node part) implements Node {
    }

    private final Node root;

    private final String canonical;

    private Selector(Node root) {
        this.root = root;
        this.canonical = print(root, true);
    }

    /**
     * @return the selector that matches every read
     */
    public static Selector all() {
        return new Selector(new All());
    }

    /**
     * Parses a selector.
     * @param text the selector, e.g. {@code layer:network-fabric AND NOT kind:signal}
     * @return the parsed selector
     * @throws SelectorException if the text is empty, too long, too deep, has too many
     * tests, uses an unknown field or a malformed value, or is not well formed; the
     * message names the problem and its 1-based character position
     */
    public static Selector parse(String text) {
        if (text == null || text.isBlank()) {
            throw new SelectorException("the topic is empty: give a selector such as layer:network-fabric or all");
        }
        if (text.length() > MAX_LENGTH) {
            throw new SelectorException(
                    "the topic is " + text.length() + " characters long; at most " + MAX_LENGTH + " are allowed");
        }
        return new Selector(new Parser(text).parseAll());
    }

    /**
     * @param read a read as published on {@code chainfeed.reads.v1}
     * @return whether the read belongs to this topic
     */
    public boolean matches(Read read) {
        return eval(root, new ReadFacts(read));
    }

    /**
     * @param doc a read document as stored in the {@code chainfeed-reads} index (fields
     * {@code kind}, {@code slug}, {@code layerIds}, {@code companySymbols},
     * {@code companies[].id}, {@code termSlugs})
     * @return whether the document belongs to this topic
     */
    public boolean matches(Map<String, Object> doc) {
        return eval(root, new DocFacts(doc));
    }

    /**
     * @return an Elasticsearch query (filter context: no scoring) over the
     * {@code chainfeed-reads} alias that selects exactly the documents
     * {@link #matches(Map)} accepts
     */
    public Query toQuery() {
        return query(root);
    }

    /**
     * @return the selector in normal form: lower-case keywords, operands of AND/OR
     * flattened, sorted and de-duplicated, company symbols upper-case; two selectors that
     * always select the same reads by the same rules print the same. Parses back to an
     * equal selector.
     */
    public String canonical() {
        return canonical;
    }

    /**
     * Resolves every {@code company:} test through the company reference data: any
     * listing's display symbol, a MIC-qualified symbol ({@code XNYS:TSM}), the company
     * id, or a name or alias written without spaces, in any case. A resolved test prints
     * as the company's canonical symbol and matches the company by id and by every
     * listing's display symbol, so {@code company:TSM} and {@code company:2330.TW} are
     * the same topic.
     * @param companies the resolver
     * @param strict true: a company the reference data does not know is an error; false:
     * such a test is kept as written (for topics stored before the reference data
     * changed)
     * @return the resolved selector (this one if it has no company test)
     * @throws io.chainfeed.api.reference.UnknownCompanyException if {@code strict}, the
     * reference data is loaded, and a test names no known company; it names the test's
     * value and offers close matches
     */
    public Selector resolveCompanies(io.chainfeed.api.reference.CompanyResolver companies, boolean strict) {
        if (tests().stream().noneMatch(t -> t.getKey() == Field.COMPANY)) {
            return this;
        }
        boolean known = companies.ready();
        return new Selector(resolve(root, companies, strict && known));
    }

    private static Node resolve(Node n, io.chainfeed.api.reference.CompanyResolver companies, boolean strict) {
        if (n instanceof Test t) {
            if (t.field() != Field.COMPANY) {
                return t;
            }
            var found = companies.find(t.value());
            if (found.isEmpty()) {
                if (strict) {
                    companies.require(t.value());
                }
                return t;
            }
            var c = found.get();
            return new Test(Field.COMPANY,
                    io.chainfeed.schemas.CompanyDirectory.canonicalSymbol(c).toUpperCase(Locale.ROOT), c.getId(),
                    io.chainfeed.schemas.CompanyDirectory.displaySymbols(c));
        }
        else if (n instanceof And a) {
            return Parser.combine(a.parts().stream().map(p -> resolve(p, companies, strict)).toList(), true);
        }
        else if (n instanceof Or o) {
            return Parser.combine(o.parts().stream().map(p -> resolve(p, companies, strict)).toList(), false);
        }
        else if (n instanceof Not x) {
            return new Not(resolve(x.part(), companies, strict));
        }
        return n;
    }

    /**
     * @return the field tests this selector makes, e.g. to check the values exist
     */
    public List<Map.Entry<Field, String>> tests() {
        List<Map.Entry<Field, String>> out = new ArrayList<>();
        collect(root, out);
        return List.copyOf(out);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Selector s && s.canonical.equals(canonical);
    }

    @Override
    public int hashCode() {
        return canonical.hashCode();
    }

    @Override
    public String toString() {
        return canonical;
    }

    private static void collect(Node n, List<Map.Entry<Field, String>> out) {
        if (n instanceof Test t) {
            out.add(Map.entry(t.field(), t.value()));
        }
        else if (n instanceof And a) {
            a.parts().forEach(p -> collect(p, out));
        }
        else if (n instanceof Or o) {
            o.parts().forEach(p -> collect(p, out));
        }
        else if (n instanceof Not x) {
            collect(x.part(), out);
        }
    }

    // ---- evaluation
    // -------------------------------------------------------------------------------

    private interface Facts {

        String kind();

        String slug();

        Collection<String> layers();

        Collection<String> symbols();

        Collection<String> companyIds();

        Collection<String> terms();

    }

    private record ReadFacts(Read r) implements Facts {
        public String kind() {
            return r.getKind().name();
        }

        public String slug() {
            return r.getSlug();
        }

        public Collection<String> layers() {
            return r.getLayers().stream().map(LayerTag::getId).toList();
        }

        public Collection<String> symbols() {
            return r.getCompanies().stream().map(CompanyTag::getSymbol).toList();
        }

        public Collection<String> companyIds() {
            return r.getCompanies().stream().map(CompanyTag::getId).toList();
        }

        public Collection<String> terms() {
            return r.getTerms().stream().map(TermTag::getSlug).toList();
        }
    }

    private record DocFacts(Map<String, Object> d) implements Facts {
        public String kind() {
            return String.valueOf(d.get("kind")).toUpperCase(Locale.ROOT);
        }

        public String slug() {
            return String.valueOf(d.get("slug"));
        }

        public Collection<String> layers() {
            return strings(d.get("layerIds"));
        }

        public Collection<String> symbols() {
            return strings(d.get("companySymbols"));
        }

        public Collection<String> companyIds() {
            List<String> ids = new ArrayList<>();
            if (d.get("companies") instanceof List<?> list) {
                for (Object o : list) {
                    if (o instanceof Map<?, ?> m && m.get("id") != null) {
                        ids.add(m.get("id").toString());
                    }
                }
            }
            return ids;
        }

        public Collection<String> terms() {
            return strings(d.get("termSlugs"));
        }

        private static Collection<String> strings(Object o) {
            return o instanceof List<?> list ? list.stream().map(String::valueOf).toList() : List.of();
        }
    }

    private static boolean eval(Node n, Facts f) {
        if (n instanceof Test t) {
            return test(t, f);
        }
        else if (n instanceof And a) {
            return a.parts().stream().allMatch(p -> eval(p, f));
        }
        else if (n instanceof Or o) {
            return o.parts().stream().anyMatch(p -> eval(p, f));
        }
        else if (n instanceof Not x) {
            return !eval(x.part(), f);
        }
        return true;
    }

    private static boolean test(Test t, Facts f) {
        String v = t.value();
        return switch (t.field()) {
            case LAYER -> f.layers().contains(v);
            case COMPANY -> t.companyId() != null
                    ? f.companyIds().contains(t.companyId())
                            || f.symbols().stream().anyMatch(s -> t.symbols().stream().anyMatch(s::equalsIgnoreCase))
                    : f.symbols().stream().anyMatch(s -> s.equalsIgnoreCase(v))
                            || f.companyIds().contains(v.toLowerCase(Locale.ROOT));
            case TERM -> (ReadKind.TERM.name().equals(f.kind()) && v.equals(f.slug())) || f.terms().contains(v);
            case KIND -> f.kind().equalsIgnoreCase(v);
        };
    }

    private static Query query(Node n) {
        if (n instanceof Test t) {
            return testQuery(t);
        }
        else if (n instanceof And a) {
            return QueryBuilders.bool(b -> b.filter(a.parts().stream().map(Selector::query).toList()));
        }
        else if (n instanceof Or o) {
            return QueryBuilders
                .bool(b -> b.should(o.parts().stream().map(Selector::query).toList()).minimumShouldMatch("1"));
        }
        else if (n instanceof Not x) {
            return QueryBuilders.bool(b -> b.mustNot(query(x.part())));
        }
        return QueryBuilders.matchAll(m -> m);
    }

    private static Query testQuery(Test t) {
        String v = t.value();
        return switch (t.field()) {
            case LAYER -> term("layerIds", v);
            // Display symbols are stored as published (upper-case letters); the term
            // query on
            // companySymbols is made case-insensitive so that company:anet finds ANET.
            case COMPANY -> t.companyId() != null
                    ? QueryBuilders.bool(b -> b
                        .should(term("companies.id", t.companyId()),
                                QueryBuilders.terms(q -> q.field("companySymbols")
                                    .terms(tv -> tv.value(t.symbols().stream().map(FieldValue::of).toList()))))
                        .minimumShouldMatch("1"))
                    : QueryBuilders.bool(b -> b
                        .should(QueryBuilders.term(q -> q.field("companySymbols").value(v).caseInsensitive(true)),
                                term("companies.id", v.toLowerCase(Locale.ROOT)))
                        .minimumShouldMatch("1"));
            case TERM -> QueryBuilders.bool(b -> b
                .should(term("termSlugs", v),
                        QueryBuilders.bool(own -> own.filter(term("kind", "term"), term("slug", v))))
                .minimumShouldMatch("1"));
            case KIND -> term("kind", v);
        };
    }

    private static Query term(String field, String value) {
        return QueryBuilders.term(q -> q.field(field).value(FieldValue.of(value)));
    }

    // ---- printing
    // ---------------------------------------------------------------------------------

    private static String print(Node n, boolean top) {
        if (n instanceof Test t) {
            return t.field().label() + ":" + t.value();
        }
        else if (n instanceof Not x) {
            return "NOT " + print(x.part(), false);
        }
        else if (n instanceof And a) {
            return group(a.parts(), " AND ", top);
        }
        else if (n instanceof Or o) {
            return group(o.parts(), " OR ", top);
        }
        return "all";
    }

    private static String group(List<Node> parts, String op, boolean top) {
        String inner = String.join(op, parts.stream().map(p -> print(p, false)).toList());
        return top ? inner : "(" + inner + ")";
    }

    // ---- parsing
    // ----------------------------------------------------------------------------------

    /** Recursive descent over a token list; positions are 1-based character offsets. */
    private static final class Parser {

        private record Token(String text, int pos) {
        }

        private final List<Token> tokens = new ArrayList<>();

        private final int end;

        private int i;

        private int tests;

        Parser(String text) {
            end = text.length() + 1;
            int k = 0;
            while (k < text.length()) {
                char c = text.charAt(k);
                if (Character.isWhitespace(c)) {
                    k++;
                }
                else if (c == '(' || c == ')') {
                    tokens.add(new Token(String.valueOf(c), k + 1));
                    k++;
                }
                else {
                    int start = k;
                    while (k < text.length() && !Character.isWhitespace(text.charAt(k)) && text.charAt(k) != '('
                            && text.charAt(k) != ')') {
                        k++;
                    }
                    tokens.add(new Token(text.substring(start, k), start + 1));
                }
            }
        }

        Node parseAll() {
            Node n = or(0);
            if (i < tokens.size()) {
                Token t = tokens.get(i);
                throw new SelectorException(t.text().equals(")") ? "unbalanced ')' at position " + t.pos()
                        : "unexpected '" + t.text() + "' at position " + t.pos());
            }
            return n;
        }

        private Node or(int depth) {
            List<Node> parts = new ArrayList<>();
            parts.add(and(depth));
            while (isKeyword("OR")) {
                i++;
                parts.add(and(depth));
            }
            return combine(parts, false);
        }

        private Node and(int depth) {
            List<Node> parts = new ArrayList<>();
            parts.add(not(depth));
            while (i < tokens.size() && !isKeyword("OR") && !tokens.get(i).text().equals(")")) {
                if (isKeyword("AND")) {
                    i++;
                }
                parts.add(not(depth));
            }
            return combine(parts, true);
        }

        private Node not(int depth) {
            if (depth > MAX_DEPTH) {
                throw new SelectorException(
                        "the topic nests deeper than " + MAX_DEPTH + " levels at position " + pos());
            }
            if (isKeyword("NOT")) {
                i++;
                return negate(not(depth + 1));
            }
            return atom(depth);
        }

        private Node atom(int depth) {
            if (i >= tokens.size()) {
                throw new SelectorException("the topic ends where a test was expected (position " + end
                        + "): add e.g. layer:<id>, company:<symbol>, term:<slug>, kind:<kind> or all");
            }
            Token t = tokens.get(i++);
            String text = t.text();
            if (text.equals("(")) {
                Node inner = or(depth + 1);
                if (i >= tokens.size() || !tokens.get(i).text().equals(")")) {
                    throw new SelectorException("the '(' at position " + t.pos() + " is never closed");
                }
                i++;
                return inner;
            }
            if (text.equals(")")) {
                throw new SelectorException("unexpected ')' at position " + t.pos());
            }
            String upper = text.toUpperCase(Locale.ROOT);
            if (upper.equals("AND") || upper.equals("OR")) {
                throw new SelectorException("'" + text + "' at position " + t.pos() + " needs a test on its left");
            }
            if (upper.equals("ALL")) {
                return new All();
            }
            int colon = text.indexOf(':');
            if (colon < 0) {
                throw new SelectorException("'" + text + "' at position " + t.pos()
                        + " is not a test: use layer:<id>, company:<symbol>, term:<slug>, kind:<kind> or all");
            }
            String name = text.substring(0, colon).toLowerCase(Locale.ROOT);
            String value = text.substring(colon + 1);
            Field field = switch (name) {
                case "layer" -> Field.LAYER;
                case "company" -> Field.COMPANY;
                case "term" -> Field.TERM;
                case "kind" -> Field.KIND;
                default -> throw new SelectorException("unknown field '" + text.substring(0, colon) + "' at position "
                        + t.pos() + ": the fields are layer, company, term and kind");
            };
            if (value.isEmpty()) {
                throw new SelectorException("'" + name + ":' at position " + t.pos() + " has no value");
            }
            if (++tests > MAX_TESTS) {
                throw new SelectorException("the topic has more than " + MAX_TESTS + " tests");
            }
            return new Test(field, normalise(field, value, t.pos()));
        }

        private static String normalise(Field field, String value, int pos) {
            switch (field) {
                case LAYER, TERM -> {
                    String v = value.toLowerCase(Locale.ROOT);
                    if (!SLUG.matcher(v).matches()) {
                        throw new SelectorException("'" + value + "' at position " + pos + " is not a " + field.label()
                                + " " + (field == Field.LAYER ? "id" : "slug")
                                + " (lower-case letters, digits and hyphens)");
                    }
                    return v;
                }
                case COMPANY -> {
                    if (!SYMBOL.matcher(value).matches()) {
                        throw new SelectorException("'" + value + "' at position " + pos
                                + " is not a company: give a ticker such as ANET, 2345.TW or XNYS:TSM, or a company id");
                    }
                    return value.toUpperCase(Locale.ROOT);
                }
                case KIND -> {
                    String v = value.toLowerCase(Locale.ROOT);
                    if (!v.equals("term") && !v.equals("signal") && !v.equals("state")) {
                        throw new SelectorException("kind '" + value + "' at position " + pos
                                + " is unknown: the kinds are term, signal and state");
                    }
                    return v;
                }
                default -> throw new IllegalStateException(field.name());
            }
        }

        private boolean isKeyword(String keyword) {
            return i < tokens.size() && tokens.get(i).text().equalsIgnoreCase(keyword);
        }

        private int pos() {
            return i < tokens.size() ? tokens.get(i).pos() : end;
        }

        private static Node negate(Node n) {
            return n instanceof Not x ? x.part() : new Not(n);
        }

        /**
         * Flattens nested operands of the same operator, drops duplicates and sorts them
         * by text.
         */
        private static Node combine(List<Node> parts, boolean and) {
            if (parts.size() == 1) {
                return parts.get(0);
            }
            TreeSet<String> seen = new TreeSet<>();
            List<Node> flat = new ArrayList<>();
            for (Node p : parts) {
                List<Node> inner = and && p instanceof And a ? a.parts()
                        : !and && p instanceof Or o ? o.parts() : List.of(p);
                for (Node q : inner) {
                    if (seen.add(print(q, false))) {
                        flat.add(q);
                    }
                }
            }
            flat.sort((x, y) -> print(x, false).compareTo(print(y, false)));
            if (flat.size() == 1) {
                return flat.get(0);
            }
            return and ? new And(List.copyOf(flat)) : new Or(List.copyOf(flat));
        }

    }

}
