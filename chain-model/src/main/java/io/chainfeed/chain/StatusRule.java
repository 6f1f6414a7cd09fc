package io.chainfeed.chain;

import io.chainfeed.avro.LayerStatus;
import java.time.LocalDate;
import java.util.Locale;

/**
 * How a layer's status is read from its pressure: its own pressure either as today (the
 * capped decayed sum) or normalised by its coverage, {@code raw / (k + c)} with {@code c}
 * the decayed count of its counted signals (each weighed {@code share × 2^(−age/H)}, as
 * the pressure but without sign or magnitude); and the thresholds either absolute or
 * against the layer's own normal (its weekly pressures, {@link Normal}), as percentiles
 * ({@code q} = the share of the normal's samples below the pressure: loose when
 * {@code q < low}, tight from {@code tight}, critical from {@code critical}) or as
 * z-scores ({@code z = (P − mean) / max(sd,} {@value #SD_FLOOR}{@code )}: loose when
 * {@code z ≤ −low}, tight from {@code tight}, critical from {@code critical}).
 *
 * @param coverageK {@code k}, or a negative number for no normalisation
 * @param normal what the thresholds are read against
 * @param z whether the thresholds are z-scores (else percentiles, as fractions)
 * @param low the loose threshold
 * @param tight the tight threshold
 * @param critical the critical threshold
 */
public record StatusRule(double coverageK, StatusRule.Normal normal, boolean z, double low, double tight,
        double critical) {

    /**
     * What a layer's status is read against (issue 37 item 2,
     * docs/chain-model-prereg.md).
     */
    public enum Normal {

        /**
         * Absolute thresholds, the same for every layer (loose −1, tight 3, critical 6).
         */
        ABSOLUTE,

        /**
         * The layer's weekly pressures over the fixed base period
         * {@link StatusRule#BASE_FROM}..{@link StatusRule#BASE_TO}.
         */
        FIXED,

        /**
         * The layer's weekly pressures over the {@value StatusRule#TRAILING_DAYS} days
         * before the instant.
         */
        TRAILING

    }

    /** First day (UTC) of the fixed base period. */
    public static final LocalDate BASE_FROM = LocalDate.parse("2023-01-01");

    /** Last day (UTC) of the fixed base period. */
    public static final LocalDate BASE_TO = LocalDate.parse("2024-12-31");

    /** Length of the trailing normal, days. */
    public static final long TRAILING_DAYS = 730;

    /** Floor of a normal's standard deviation for the z thresholds. */
    public static final double SD_FLOOR = 0.25;

    /** Today's rule: no normalisation, absolute thresholds. */
    public static final StatusRule ABSOLUTE = new StatusRule(-1, Normal.ABSOLUTE, false, ChainModel.LOOSE_BELOW,
            ChainModel.TIGHT_FROM, ChainModel.CRITICAL_FROM);

    /**
     * @return whether own pressure is normalised by coverage
     */
    public boolean normalised() {
        return coverageK >= 0;
    }

    /**
     * @param text {@code absolute}, or {@code <norm>/<normal>/<thresholds>}: norm
     * {@code none} or {@code k<k>}, normal {@code fixed} or {@code trailing}, thresholds
     * {@code p<low>-<tight>-<critical>} (percent) or {@code z<z1>-<z2>}; e.g.
     * {@code k1/fixed/p25-75-95}, {@code none/trailing/z0.5-2}
     * @return the rule it names
     */
    public static StatusRule parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("absolute")) {
            return ABSOLUTE;
        }
        String[] parts = t.split("/");
        if (parts.length != 3) {
            throw new IllegalArgumentException("not a status rule: " + text);
        }
        double k = parts[0].equals("none") ? -1 : Double.parseDouble(parts[0].substring(1));
        if (!parts[0].equals("none") && !(parts[0].startsWith("k") && k > 0)) {
            throw new IllegalArgumentException("not a normalisation: " + parts[0]);
        }
        Normal normal = Normal.valueOf(parts[1].toUpperCase(Locale.ROOT));
        if (normal == Normal.ABSOLUTE) {
            throw new IllegalArgumentException("absolute thresholds are named 'absolute': " + text);
        }
        String th = parts[2];
        String[] v = th.substring(1).split("-");
        if (th.startsWith("p") && v.length == 3) {
            return new StatusRule(k, normal, false, Double.parseDouble(v[0]) / 100, Double.parseDouble(v[1]) / 100,
                    Double.parseDouble(v[2]) / 100);
        }
        if (th.startsWith("z") && v.length == 2) {
            double z1 = Double.parseDouble(v[0]);
            return new StatusRule(k, normal, true, z1, z1, Double.parseDouble(v[1]));
        }
        throw new IllegalArgumentException("not thresholds: " + th);
    }

    @Override
    public String toString() {
        if (normal == Normal.ABSOLUTE && !normalised()) {
            return "absolute";
        }
        String n = normalised() ? "k" + num(coverageK) : "none";
        String th = z ? "z" + num(low) + "-" + num(critical)
                : "p" + num(low * 100) + "-" + num(tight * 100) + "-" + num(critical * 100);
        return n + "/" + normal.name().toLowerCase(Locale.ROOT) + "/" + th;
    }

    private static String num(double v) {
        double r = Math.round(v * 1000) / 1000.0;
        return r == Math.rint(r) ? Long.toString((long) r) : Double.toString(r);
    }

    /**
     * @param pressure a layer's pressure
     * @param samples the layer's normal (its weekly pressures), ignored for absolute
     * thresholds
     * @return its status; BALANCED against an empty normal
     */
    public LayerStatus status(double pressure, double[] samples) {
        if (normal == Normal.ABSOLUTE) {
            double p = ChainModel.round(pressure);
            return ladder(p <= low, p);
        }
        if (samples == null || samples.length == 0) {
            return LayerStatus.BALANCED;
        }
        double p = ChainModel.round(pressure);
        if (z) {
            double mean = 0;
            for (double x : samples) {
                mean += x;
            }
            mean /= samples.length;
            double var = 0;
            for (double x : samples) {
                var += (x - mean) * (x - mean);
            }
            double sd = Math.max(SD_FLOOR, Math.sqrt(var / samples.length));
            double zs = (p - mean) / sd;
            return ladder(zs <= -low, zs);
        }
        int below = 0;
        for (double x : samples) {
            if (x < p) {
                below++;
            }
        }
        double q = (double) below / samples.length;
        return ladder(q < low, q);
    }

    /**
     * The status a value reads on this rule's thresholds, once whether it is loose is
     * known (each reading states its own loose test).
     */
    private LayerStatus ladder(boolean loose, double v) {
        return loose ? LayerStatus.LOOSE
                : v < tight ? LayerStatus.BALANCED : v < critical ? LayerStatus.TIGHT : LayerStatus.CRITICAL;
    }

}
