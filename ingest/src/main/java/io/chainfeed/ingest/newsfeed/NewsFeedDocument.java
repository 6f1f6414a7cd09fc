package io.chainfeed.ingest.newsfeed;

import com.rometools.rome.feed.synd.SyndEntry;
import com.rometools.rome.feed.synd.SyndFeed;
import com.rometools.rome.io.FeedException;
import com.rometools.rome.io.SAXBuilder;
import com.rometools.rome.io.SyndFeedInput;
import com.rometools.rome.io.WireFeedInput;
import com.rometools.rome.io.XmlReader;
import com.rometools.rome.io.impl.XmlFixerReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.net.URI;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jdom2.Document;
import org.jdom2.Element;
import org.jdom2.JDOMException;

/**
 * One fetched feed document, parsed twice over the same XML tree: by Rome into its
 * format-neutral model (titles, descriptions, contents, categories) and kept as the JDOM
 * tree, from which links (with {@code xml:base}) and dates (with the element they came
 * from) are read.
 *
 * <p>
 * Formats: whatever Rome reads, RSS 0.90, 0.91 (Netscape and Userland), 0.92, 0.93, 0.94,
 * 1.0 (RDF) and 2.0, Atom 0.3 and 1.0.
 *
 * <p>
 * Encoding: a byte order mark wins; else the {@code charset} of the HTTP
 * {@code Content-Type} (RFC 7303 section 3: the header over the prolog), when the JDK
 * knows it; else the XML prolog's {@code encoding}; else UTF-8 (those two by Rome's
 * {@link XmlReader}, lenient). Any charset the JDK knows is read (UTF-8/16, ISO-8859-1,
 * windows-1252, EUC-KR, Shift_JIS ...).
 *
 * <p>
 * Safety: Rome's own SAX set-up with DOCTYPEs allowed: external general and parameter
 * entities off, the external DTD never loaded, every external entity resolved to nothing,
 * and entities not expanded into the tree (the JDK parser's expansion limits apply
 * besides). HTML named entities that legacy feeds take from the Netscape DTD
 * ({@code &eacute;}) become character references first (Rome's {@link XmlFixerReader}),
 * so they read as the character rather than failing the document.
 */
final class NewsFeedDocument {

    private static final Pattern CHARSET = Pattern.compile("(?i);\\s*charset\\s*=\\s*(\"[^\"]*\"|[^;\\s]+)");

    /** RSS 1.0 and 0.90 put items beside the channel, in these namespaces. */
    private static final Set<String> RDF_ITEM_NAMESPACES = Set.of("http://purl.org/rss/1.0/",
            "http://my.netscape.com/rdf/simple/0.9/");

    private final SyndFeed feed;

    private final Element feedElement;

    private final boolean atom;

    private final List<Item> items;

    /**
     * One item (RSS) or entry (Atom) in both forms.
     *
     * @param entry Rome's model of it
     * @param element its element in the document (for links and dates)
     */
    record Item(SyndEntry entry, Element element) {
    }

    private NewsFeedDocument(SyndFeed feed, Element feedElement, boolean atom, List<Item> items) {
        this.feed = feed;
        this.feedElement = feedElement;
        this.atom = atom;
        this.items = items;
    }

    /**
     * @param body the document bytes as received (decompressed)
     * @param contentType the HTTP {@code Content-Type}, or null/empty
     * @param base the URL the document was fetched from: the base of its relative links
     * (RFC 3986 section 5.1.3), before any {@code xml:base}
     * @return the document
     * @throws IllegalArgumentException if the bytes are not a well-formed RSS or Atom
     * document in a readable encoding
     */
    static NewsFeedDocument parse(byte[] body, String contentType, URI base) {
        Document document;
        SyndFeed feed;
        try (Reader reader = reader(body, contentType)) {
            document = new Input().document(reader);
            document.setBaseURI(withPath(base).toString());
            feed = new SyndFeedInput().build(document);
        }
        catch (IOException | JDOMException | FeedException | RuntimeException e) {
            throw new IllegalArgumentException("not a readable RSS/Atom document: " + e.getMessage(), e);
        }
        Element root = document.getRootElement();
        boolean atom = root.getName().equals("feed");
        Element feedElement = atom ? root : child(root, "channel");
        List<Element> elements = new ArrayList<>();
        if (atom) {
            root.getChildren().stream().filter(e -> e.getName().equals("entry")).forEach(elements::add);
        }
        else {
            if (feedElement != null) {
                feedElement.getChildren().stream().filter(NewsFeedDocument::isItem).forEach(elements::add);
            }
            root.getChildren().stream().filter(NewsFeedDocument::isItem).forEach(elements::add);
        }
        List<SyndEntry> entries = feed.getEntries();
        if (entries.size() != elements.size()) {
            throw new IllegalArgumentException("Rome read " + entries.size() + " items but the document has "
                    + elements.size() + " item elements; the feed's shape is not understood");
        }
        List<Item> items = new ArrayList<>(entries.size());
        for (int i = 0; i < entries.size(); i++) {
            items.add(new Item(entries.get(i), elements.get(i)));
        }
        return new NewsFeedDocument(feed, feedElement == null ? root : feedElement, atom, List.copyOf(items));
    }

    private static boolean isItem(Element e) {
        String ns = e.getNamespaceURI();
        return e.getName().equals("item") && (ns.isEmpty() || RDF_ITEM_NAMESPACES.contains(ns));
    }

    private static Element child(Element parent, String name) {
        return parent.getChildren().stream().filter(e -> e.getName().equals(name)).findFirst().orElse(null);
    }

    /**
     * {@code http://host} has an empty path, against which {@link URI#resolve} would glue
     * names on.
     */
    private static URI withPath(URI uri) {
        return uri.getRawPath() == null || uri.getRawPath().isEmpty() ? uri.resolve("/") : uri;
    }

    private static Reader reader(byte[] body, String contentType) throws IOException {
        ByteArrayInputStream in = new ByteArrayInputStream(body);
        boolean bom = body.length >= 2
                && ((body[0] == (byte) 0xEF && body.length >= 3 && body[1] == (byte) 0xBB && body[2] == (byte) 0xBF)
                        || (body[0] == (byte) 0xFE && body[1] == (byte) 0xFF)
                        || (body[0] == (byte) 0xFF && body[1] == (byte) 0xFE));
        Charset declared = bom ? null : headerCharset(contentType);
        // a Reader hands the parser characters, so the prolog's encoding= is then
        // ignored, as it must be
        return declared != null ? new InputStreamReader(in, declared) : new XmlReader(in, true);
    }

    /**
     * @return the charset parameter of a Content-Type when the JDK knows it, else null
     */
    private static Charset headerCharset(String contentType) {
        if (contentType == null) {
            return null;
        }
        Matcher m = CHARSET.matcher(contentType);
        if (!m.find()) {
            return null;
        }
        String name = m.group(1).replace("\"", "").replace("'", "").strip();
        try {
            return Charset.forName(name);
        }
        catch (IllegalArgumentException e) {
            return null; // unknown or malformed: let the document say
        }
    }

    /**
     * Rome's SAX builder, with DOCTYPEs allowed; see the class comment for what that
     * keeps off.
     */
    private static final class Input extends WireFeedInput {

        Input() {
            super(false, Locale.US);
            setAllowDoctypes(true);
        }

        Document document(Reader reader) throws JDOMException, IOException {
            SAXBuilder builder = createSAXBuilder();
            return builder.build(new XmlFixerReader(reader));
        }

    }

    /**
     * @return Rome's model of the feed (title, entries ...)
     */
    SyndFeed feed() {
        return feed;
    }

    /**
     * @return the element holding the feed-level metadata: Atom {@code feed}, RSS
     * {@code channel}
     */
    Element feedElement() {
        return feedElement;
    }

    /**
     * @return whether it is an Atom (0.3 or 1.0) document
     */
    boolean atom() {
        return atom;
    }

    /**
     * @return the items in document order
     */
    List<Item> items() {
        return items;
    }

}
