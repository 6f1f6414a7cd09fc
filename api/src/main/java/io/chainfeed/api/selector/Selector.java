package io.chainfeed.api.selector;

import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import io.chainfeed.api.reference.CompanyResolver;
import io.chainfeed.api.selector.Expression.All;
import io.chainfeed.api.selector.Expression.And;
import io.chainfeed.api.selector.Expression.Not;
import io.chainfeed.api.selector.Expression.Or;
import io.chainfeed.api.selector.Expression.Test;
import io.chainfeed.avro.Read;
import io.chainfeed.schemas.CompanyDirectory;
import io.chainfeed.schemas.ReadDocument;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

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
 *
 * <p>
 * This class is the public face of the package-private parts: the syntax tree
 * ({@code Expression}), its parser ({@code SelectorParser}), its evaluator on reads and
 * documents ({@code SelectorEvaluator}) and its query writer
 * ({@code SelectorQueryWriter}).
 */
public final class Selector {

    /** Longest selector text accepted, in characters. */
    public static final int MAX_LENGTH = 512;

    /** Most field tests in one selector. */
    public static final int MAX_TESTS = 32;

    /** Deepest nesting of parentheses and NOTs. */
    public static final int MAX_DEPTH = 16;

    /** The kinds of field test. */
    public enum Field {

        LAYER, COMPANY, TERM, KIND;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }

    }

    private final Expression root;

    private final String canonical;

    private Selector(Expression root) {
        this.root = root;
        this.canonical = Expression.print(root, true);
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
        return new Selector(new SelectorParser(text).parseAll());
    }

    /**
     * @param read a read as published on {@code chainfeed.reads.v1}
     * @return whether the read belongs to this topic
     */
    public boolean matches(Read read) {
        return SelectorEvaluator.matches(root, read);
    }

    /**
     * @param doc a read document as stored in the {@code chainfeed-reads} index (fields
     * {@code kind}, {@code slug}, {@code layerIds}, {@code companySymbols},
     * {@code companies[].id}, {@code termSlugs})
     * @return whether the document belongs to this topic
     */
    public boolean matches(ReadDocument doc) {
        return SelectorEvaluator.matches(root, doc);
    }

    /**
     * @return an Elasticsearch query (filter context: no scoring) over the
     * {@code chainfeed-reads} alias that selects exactly the documents
     * {@link #matches(ReadDocument)} accepts
     */
    public Query toQuery() {
        return SelectorQueryWriter.query(root);
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
    public Selector resolveCompanies(CompanyResolver companies, boolean strict) {
        if (tests().stream().noneMatch(t -> t.getKey() == Field.COMPANY)) {
            return this;
        }
        boolean known = companies.ready();
        return new Selector(resolve(root, companies, strict && known));
    }

    private static Expression resolve(Expression n, CompanyResolver companies, boolean strict) {
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
            return new Test(Field.COMPANY, CompanyDirectory.canonicalSymbol(c).toUpperCase(Locale.ROOT), c.getId(),
                    CompanyDirectory.displaySymbols(c));
        }
        else if (n instanceof And a) {
            return SelectorParser.combine(a.parts().stream().map(p -> resolve(p, companies, strict)).toList(), true);
        }
        else if (n instanceof Or o) {
            return SelectorParser.combine(o.parts().stream().map(p -> resolve(p, companies, strict)).toList(), false);
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

    private static void collect(Expression n, List<Map.Entry<Field, String>> out) {
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

}
