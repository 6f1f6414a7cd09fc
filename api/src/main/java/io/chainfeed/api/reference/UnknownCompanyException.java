package io.chainfeed.api.reference;

import io.chainfeed.api.support.problem.BadRequestException;
import java.util.List;

/**
 * A request named a company that the reference data does not know: a 400 problem of type
 * {@code unknown-company} (RFC 9457) whose {@code company} member repeats what was
 * written and whose {@code closeMatches} member offers nearby identifiers.
 */
public class UnknownCompanyException extends BadRequestException {

    private final String company;

    private final List<String> closeMatches;

    /**
     * @param company the identifier as written
     * @param closeMatches nearby companies, {@code "<symbol> (<name>)"}, nearest first
     * (may be empty)
     */
    public UnknownCompanyException(String company, List<String> closeMatches) {
        super("unknown-company", "no company '" + company + "' in the reference data"
                + (closeMatches.isEmpty() ? "" : "; did you mean " + String.join(", ", closeMatches) + "?"));
        this.company = company;
        this.closeMatches = List.copyOf(closeMatches);
        problem().setTitle("Unknown company");
        problem().setProperty("company", company);
        problem().setProperty("closeMatches", this.closeMatches);
    }

    /**
     * @return the identifier as written
     */
    public String company() {
        return company;
    }

    /**
     * @return nearby companies, nearest first
     */
    public List<String> closeMatches() {
        return closeMatches;
    }

}
