package io.chainfeed.ingest;

import java.text.Normalizer;
import java.util.Locale;

/** Stable, URL-safe identifiers derived from titles. */
public final class Slugs {

    private Slugs() {
    }

    /**
     * Turns a title into a slug: NFKD-folded, lower case (ROOT locale), runs of anything
     * but {@code [a-z0-9]} collapsed to one hyphen, no leading or trailing hyphen.
     * {@code "AI Ethernet (RoCE)"} gives {@code "ai-ethernet-roce"}.
     * @param title any text, not null
     * @return the slug; empty if the title holds no letter or digit
     */
    public static String slugify(String title) {
        String folded = Normalizer.normalize(title, Normalizer.Form.NFKD).replaceAll("\\p{M}+", "");
        String slug = folded.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
        return slug.replaceAll("^-+|-+$", "");
    }

}
