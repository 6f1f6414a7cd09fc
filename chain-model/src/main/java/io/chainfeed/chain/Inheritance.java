package io.chainfeed.chain;

import java.util.Locale;

/**
 * The inheritance rule and its damping.
 *
 * @param rule the rule
 * @param attenuation {@code A}: per hop for {@link Rule#SUM}, the damping of the
 * inherited share for {@link Rule#MAX} and {@link Rule#AVG} (at most 1/2 for those, which
 * keeps a layer's inheritance below its largest upstream own pressure)
 */
public record Inheritance(Inheritance.Rule rule, double attenuation) {

    /**
     * How a layer inherits pressure from its suppliers (issue 37 item 1,
     * docs/chain-model-prereg.md).
     */
    public enum Rule {

        /**
         * The live rule before issue 37: every upstream layer whose own direct pressure
         * is tight or critical adds {@code A^hops × direct(u)}, summed over all of them.
         */
        SUM,

        /**
         * Bounded, tightest supplier: {@code inh(l) = A × max over suppliers u of P(u)⁺}.
         */
        MAX,

        /**
         * Bounded, damped average: {@code inh(l) = A × Σ over suppliers u of P(u)⁺ / n},
         * the n suppliers weighted equally.
         */
        AVG

    }

    /**
     * The live rule since issue 37: {@link Rule#MAX} with {@code A} = 1/2, chosen by the
     * pre-registered stage-1 sweep and kept by stage 2 (docs/backtest.md).
     */
    public static final Inheritance LIVE = new Inheritance(Rule.MAX, 0.5);

    /**
     * @throws IllegalArgumentException if the damping is not in (0, 1], or above 1/2 for
     * a bounded rule
     */
    public Inheritance {
        if (!(attenuation > 0 && attenuation <= (rule == Rule.SUM ? 1 : 0.5))) {
            throw new IllegalArgumentException("attenuation " + attenuation + " is out of range for " + rule);
        }
    }

    /**
     * @param text {@code sum}, or {@code max:<A>} / {@code avg:<A>}, e.g. {@code max:0.5}
     * @return the inheritance it names
     */
    public static Inheritance parse(String text) {
        String[] parts = text.split(":", 2);
        Rule rule = Rule.valueOf(parts[0].trim().toUpperCase(Locale.ROOT));
        double a = parts.length > 1 ? Double.parseDouble(parts[1]) : ChainDecay.ATTENUATION;
        return new Inheritance(rule, a);
    }

    @Override
    public String toString() {
        return rule.name().toLowerCase(Locale.ROOT) + ":" + attenuation;
    }

}
