package io.chainfeed.api.selector;

import io.chainfeed.api.selector.Expression.And;
import io.chainfeed.api.selector.Expression.Not;
import io.chainfeed.api.selector.Expression.Or;
import io.chainfeed.api.selector.Expression.Test;
import io.chainfeed.avro.CompanyTag;
import io.chainfeed.avro.LayerTag;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.ReadKind;
import io.chainfeed.avro.TermTag;
import io.chainfeed.schemas.ReadDocument;
import java.util.Collection;
import java.util.Locale;

/**
 * Evaluates an {@link Expression} on the tags of one read: an Avro {@link Read} as
 * published (live pushes) or a read document as stored in the {@code chainfeed-reads}
 * index. Both are read through the same facts, so the two agree with each other and with
 * {@link SelectorQueryWriter}'s query.
 */
final class SelectorEvaluator {

    private SelectorEvaluator() {
    }

    /**
     * @param n the expression
     * @param read a read as published on {@code chainfeed.reads.v1}
     * @return whether the read matches
     */
    static boolean matches(Expression n, Read read) {
        return eval(n, new ReadFacts(read));
    }

    /**
     * @param n the expression
     * @param doc a read document as indexed (see {@link Selector#matches(ReadDocument)})
     * @return whether the document matches
     */
    static boolean matches(Expression n, ReadDocument doc) {
        return eval(n, new DocFacts(doc));
    }

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

    private record DocFacts(ReadDocument d) implements Facts {
        public String kind() {
            return String.valueOf(d.kind()).toUpperCase(Locale.ROOT);
        }

        public String slug() {
            return String.valueOf(d.slug());
        }

        public Collection<String> layers() {
            return d.layerIds();
        }

        public Collection<String> symbols() {
            return d.companySymbols();
        }

        public Collection<String> companyIds() {
            return d.companies().stream().map(ReadDocument.CompanyTag::id).toList();
        }

        public Collection<String> terms() {
            return d.termSlugs();
        }
    }

    private static boolean eval(Expression n, Facts f) {
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

}
