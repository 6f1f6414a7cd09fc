package io.chainfeed.api.access;

import io.chainfeed.api.support.problem.NotFoundException;
import io.chainfeed.api.support.problem.UnauthorizedException;
import io.chainfeed.api.support.settings.ApiProperties;
import io.chainfeed.avro.ApiKeyKind;
import io.chainfeed.platform.auth.HashedKeys;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.net.URI;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * Issues, lists and revokes API keys. Every call needs
 * {@code Authorization: Bearer <admin key>}; admin keys are configured only as SHA-256
 * hashes in {@code chainfeed.api.admin-key-hashes} (comma-separated; make one with
 * {@code printf %s "$KEY" | sha256sum}). With none configured, every call is refused.
 */
@RestController
@RequestMapping("/api/v1/admin/keys")
@Tag(name = "keys")
class AdminKeyController {

    private final ApiKeys keys;

    private final HashedKeys adminKeys;

    AdminKeyController(ApiKeys keys, ApiProperties props) {
        this.keys = keys;
        this.adminKeys = new HashedKeys("chainfeed.api.admin-key-hashes", props.adminKeyHashes());
    }

    /**
     * Body of a key request.
     *
     * @param kind READER or PARTNER
     * @param label who or what the key is for
     * @param allowedOrigins browser origins allowed to use the key (required for PARTNER)
     * @param ratePerMinute requests per minute; when absent {@link ApiKeys#defaultRate}
     */
    record KeyRequest(ApiKeyKind kind, String label, List<String> allowedOrigins, Integer ratePerMinute) {
    }

    @Operation(operationId = "issueKey", summary = "Issue an API key; the token is in this response only")
    @PostMapping
    @ResponseStatus(HttpStatus.CREATED) // names the answer's status in the description;
                                        // the entity sets it
    ResponseEntity<KeyView.Issued> create(@RequestHeader(name = "Authorization", required = false) String auth,
            @RequestBody KeyRequest request) {
        requireAdmin(auth);
        IssuedKey issued = keys.create(request.kind(), request.label(), request.allowedOrigins(),
                request.ratePerMinute() == null ? ApiKeys.defaultRate(request.kind()) : request.ratePerMinute());
        KeyView.Issued body = new KeyView.Issued(view(issued.principal()), issued.token());
        return ResponseEntity.created(URI.create("/api/v1/admin/keys/" + issued.principal().keyId())).body(body);
    }

    @Operation(operationId = "listKeys", summary = "List the keys that are not revoked (never their tokens)")
    @GetMapping
    List<KeyView> list(@RequestHeader(name = "Authorization", required = false) String auth) {
        requireAdmin(auth);
        return keys.list().stream().map(AdminKeyController::view).toList();
    }

    @Operation(operationId = "revokeKey", summary = "Revoke a key")
    @DeleteMapping("/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    ResponseEntity<Void> revoke(@RequestHeader(name = "Authorization", required = false) String auth,
            @PathVariable String id) {
        requireAdmin(auth);
        if (!keys.revoke(id)) {
            throw new NotFoundException("no API key with id '" + id + "'");
        }
        return ResponseEntity.noContent().build();
    }

    private void requireAdmin(String authorization) {
        if (!adminKeys.configured()) {
            throw new UnauthorizedException(
                    "this instance has no admin key configured " + "(chainfeed.api.admin-key-hashes)");
        }
        if (!adminKeys.allows(authorization)) {
            throw new UnauthorizedException("an admin key is required: Authorization: Bearer <admin key>");
        }
    }

    private static KeyView view(ApiPrincipal p) {
        return new KeyView(p.keyId(), p.kind().name(), p.label(), p.allowedOrigins(), p.ratePerMinute(),
                p.createdAt().toString());
    }

}
