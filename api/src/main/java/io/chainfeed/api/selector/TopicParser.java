package io.chainfeed.api.selector;

import io.chainfeed.api.reference.CompanyResolver;
import lombok.RequiredArgsConstructor;
import org.springframework.stereotype.Component;

/**
 * Parses a topic selector ({@link Selector#parse}) and resolves its company tests through
 * the {@link CompanyResolver}, for every surface that takes a topic: feeds (SSE, Atom,
 * JSON Feed), the widget and its data, oEmbed, pages and webhooks.
 */
@Component
@RequiredArgsConstructor
public class TopicParser {

    private final CompanyResolver companies;

    /**
     * @return the company resolver topics are resolved with
     */
    public CompanyResolver companies() {
        return companies;
    }

    /**
     * A topic a client gives now.
     * @param topic the selector text
     * @return the parsed, resolved selector
     * @throws SelectorException for a malformed selector (400)
     * @throws io.chainfeed.api.reference.UnknownCompanyException for a company the
     * reference data does not know (400, with close matches)
     */
    public Selector parse(String topic) {
        return Selector.parse(topic).resolveCompanies(companies, true);
    }

    /**
     * A topic accepted earlier (a stored webhook subscription): companies resolved where
     * known, kept as written where not, never refused for it.
     * @param topic the selector text
     * @return the parsed selector
     * @throws SelectorException for a malformed selector
     */
    public Selector parseStored(String topic) {
        return Selector.parse(topic).resolveCompanies(companies, false);
    }

}
