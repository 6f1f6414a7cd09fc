package io.chainfeed.ingest.newsfeed;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import org.jdom2.Element;

/**
 * Picks an item's link the way feed readers do and makes it absolute.
 *
 * <p>
 * Which link: Atom (1.0 and 0.3): the first {@code <link>} whose {@code rel} is
 * {@code alternate} (a missing {@code rel} means alternate, RFC 4287 section 4.2.7.2).
 * RSS: the item's {@code <link>} text; else an Atom {@code <link rel="alternate">} inside
 * the item; else its {@code <guid>} when {@code isPermaLink} is not {@code false} (RSS
 * 2.0 makes it true by default) and the guid is itself an absolute http(s) URL (a guid
 * such as {@code hbm-1} is an id, not a link).
 *
 * <p>
 * Made absolute: against the {@code xml:base} in scope on the link's element (its own,
 * then every ancestor's, then the document's URL; XML Base, RFC 4287 section 2) by RFC
 * 3986 reference resolution, as JDOM's {@link Element#getXMLBaseURI()} computes it.
 */
final class NewsFeedLinks {

    private static final String ATOM_ALTERNATE = "http://www.iana.org/assignments/relation/alternate";

    private NewsFeedLinks() {
    }

    /**
     * @param item the item's element
     * @param atom whether the document is Atom
     * @return the absolute http(s) URL; or, when there is a link that cannot be made one,
     * that link as written (for the reason in the dead-letter record); null when the item
     * has no link at all
     */
    static String link(Element item, boolean atom) {
        Element chosen = null;
        String href = null;
        if (!atom) {
            for (Element e : item.getChildren()) {
                if (e.getName().equals("link") && !isAtom(e) && !e.getTextTrim().isEmpty()) {
                    chosen = e;
                    href = e.getTextTrim();
                    break;
                }
            }
        }
        if (chosen == null) {
            for (Element e : item.getChildren()) {
                if (e.getName().equals("link") && (atom || isAtom(e)) && alternate(e)
                        && e.getAttributeValue("href") != null && !e.getAttributeValue("href").isBlank()) {
                    chosen = e;
                    href = e.getAttributeValue("href").strip();
                    break;
                }
            }
        }
        if (chosen == null && !atom) {
            for (Element e : item.getChildren()) {
                if (e.getName().equals("guid") && !"false".equalsIgnoreCase(attr(e, "isPermaLink"))
                        && absoluteHttp(e.getTextTrim())) {
                    chosen = e;
                    href = e.getTextTrim();
                    break;
                }
            }
        }
        if (chosen == null) {
            return null;
        }
        try {
            URI base = chosen.getXMLBaseURI();
            URI ref = new URI(href);
            URI resolved = base == null ? ref : base.resolve(ref);
            return absoluteHttp(resolved.toString()) ? resolved.toString() : href;
        }
        catch (URISyntaxException | IllegalArgumentException e) {
            return href;
        }
    }

    private static boolean isAtom(Element e) {
        return e.getNamespaceURI().equals("http://www.w3.org/2005/Atom")
                || e.getNamespaceURI().equals("http://purl.org/atom/ns#");
    }

    private static boolean alternate(Element link) {
        String rel = link.getAttributeValue("rel");
        return rel == null || rel.isBlank() || rel.strip().equalsIgnoreCase("alternate")
                || rel.strip().equals(ATOM_ALTERNATE);
    }

    private static String attr(Element e, String name) {
        String v = e.getAttributeValue(name);
        return v == null ? "" : v.strip();
    }

    /**
     * @return whether the text is an absolute http or https URL with a host
     */
    static boolean absoluteHttp(String text) {
        try {
            URI u = new URI(text);
            String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
            return (scheme.equals("http") || scheme.equals("https")) && u.getHost() != null;
        }
        catch (URISyntaxException e) {
            return false;
        }
    }

}
