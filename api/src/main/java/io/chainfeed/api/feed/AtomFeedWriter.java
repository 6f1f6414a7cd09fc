package io.chainfeed.api.feed;

import com.rometools.rome.feed.atom.Category;
import com.rometools.rome.feed.atom.Content;
import com.rometools.rome.feed.atom.Entry;
import com.rometools.rome.feed.atom.Feed;
import com.rometools.rome.feed.atom.Link;
import com.rometools.rome.feed.atom.Person;
import com.rometools.rome.feed.synd.SyndPerson;
import com.rometools.rome.io.FeedException;
import com.rometools.rome.io.WireFeedOutput;
import io.chainfeed.api.reads.ReadView;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.jdom2.Element;
import org.jdom2.Namespace;
import org.jdom2.output.Format;
import org.jdom2.output.XMLOutputter;

/**
 * Writes a {@link FeedDocument} as an Atom 1.0 feed (RFC 4287) with Rome, whose JDOM
 * serializer escapes every text and attribute value exactly once ({@code &amp;},
 * {@code &lt;}, {@code &gt;}, quotes). Each page carries the paging links of RFC 5005
 * section 3 ({@code self}, {@code first}, {@code next}) and a {@code rel="alternate"}
 * link to the topic's web page.
 *
 * <p>
 * An entry has its stable id, {@code updated} in UTC (when chainfeed published this
 * version of the read), {@code published} for a signal (its observation instant, RFC 4287
 * section 4.2.9: an early event in the entry's life), the summary, a plain-text
 * {@code content} (what changed, summary, sections, sources, disclaimer:
 * {@link FeedEntry#contentText()}), a {@code related} link per source, categories with
 * the schemes of {@link FeedLinks}, and extension elements in the {@value #NAMESPACE}
 * namespace: {@code cf:version} (1, 2, 3 ...; attribute {@code previous} when it
 * supersedes one), {@code cf:observedAt} for a signal (RFC 3339 UTC: when its event was
 * observed; the entry's {@code updated} is when chainfeed published this version), one
 * {@code cf:change} per change (attributes {@code field}, {@code change}, {@code key};
 * text: the sentence), {@code cf:source} per source (attributes {@code name},
 * {@code href}) and {@code cf:disclaimer}.
 */
public final class AtomFeedWriter {

    /** The namespace of the extension elements. */
    public static final String NAMESPACE = "https://chainfeed.io/ns/feed/1";

    private static final Namespace CF = Namespace.getNamespace("cf", NAMESPACE);

    private AtomFeedWriter() {
    }

    /**
     * @param doc the feed page
     * @return the feed as UTF-8 XML with an XML declaration
     * @throws IllegalStateException if Rome refuses the model (a bug: every value is set
     * and cleaned)
     */
    public static byte[] write(FeedDocument doc) {
        Feed feed = new Feed("atom_1.0");
        feed.setEncoding("UTF-8");
        feed.setId(doc.id());
        feed.setTitleEx(text(doc.title()));
        feed.setSubtitle(text(doc.subtitle()));
        feed.setUpdated(Date.from(doc.updated()));
        Person author = new Person();
        author.setName("chainfeed");
        feed.setAuthors(List.<SyndPerson>of(author));
        feed.setAlternateLinks(List.of(link("alternate", "text/html", doc.page(), null)));
        List<Link> paging = new ArrayList<>();
        paging.add(link("self", FeedLinks.ATOM_TYPE, doc.self(), null));
        paging.add(link("first", FeedLinks.ATOM_TYPE, doc.first(), null));
        if (doc.next() != null) {
            paging.add(link("next", FeedLinks.ATOM_TYPE, doc.next(), null));
        }
        feed.setOtherLinks(paging);
        feed.setForeignMarkup(List.of(element("topic", doc.topic()), element("disclaimer", FeedDocument.DISCLAIMER)));
        List<Entry> entries = new ArrayList<>();
        for (FeedEntry e : doc.entries()) {
            entries.add(entry(e));
        }
        feed.setEntries(entries);
        try {
            // Rome builds the JDOM tree; JDOM writes it. Its default strategy writes
            // characters outside the
            // BMP (emoji) as character references even in UTF-8; every character is
            // encodable in UTF-8, so
            // none needs one: only the XML specials are escaped.
            Format format = Format.getPrettyFormat().setEncoding("UTF-8").setEscapeStrategy(ch -> false);
            return new XMLOutputter(format).outputString(new WireFeedOutput().outputJDom(feed))
                .getBytes(StandardCharsets.UTF_8);
        }
        catch (FeedException e) {
            throw new IllegalStateException("Rome refused the Atom feed " + doc.id(), e);
        }
    }

    private static Entry entry(FeedEntry e) {
        Entry entry = new Entry();
        entry.setId(e.id());
        entry.setTitleEx(text(e.title()));
        entry.setUpdated(Date.from(e.updated()));
        if (e.observedAt() != null) {
            entry.setPublished(Date.from(e.observedAt()));
        }
        entry.setSummary(text(e.summary()));
        entry.setContents(List.of(text(e.contentText())));
        entry.setAlternateLinks(
                List.of(link("alternate", "term".equals(e.kind()) ? "text/html" : null, e.link(), null)));
        List<Link> related = new ArrayList<>();
        for (FeedEntry.Source s : e.sources()) {
            if (FeedEntry.isWebUrl(s.url())) {
                related.add(link("related", null, s.url(), s.name()));
            }
        }
        entry.setOtherLinks(related);
        List<Category> categories = new ArrayList<>();
        for (FeedEntry.Category c : e.categories()) {
            Category category = new Category();
            category.setScheme(c.scheme());
            category.setTerm(c.term());
            category.setLabel(c.label());
            categories.add(category);
        }
        entry.setCategories(categories);
        List<Element> extensions = new ArrayList<>();
        Element version = element("version", Long.toString(e.version()));
        if (e.previousVersion() != null) {
            version.setAttribute("previous", Long.toString(e.previousVersion()));
        }
        extensions.add(version);
        if (e.observedAt() != null) {
            extensions.add(element("observedAt", e.observedAt().toString()));
        }
        if (e.signal() != null) {
            extensions.add(signal(e.signal()));
        }
        for (FeedEntry.Change c : e.changes()) {
            extensions.add(element("change", c.text()).setAttribute("field", c.field())
                .setAttribute("change", c.change())
                .setAttribute("key", c.key()));
        }
        for (FeedEntry.Source s : e.sources()) {
            extensions.add(new Element("source", CF).setAttribute("name", s.name()).setAttribute("href", s.url()));
        }
        extensions.add(element("disclaimer", e.disclaimer()));
        entry.setForeignMarkup(extensions);
        return entry;
    }

    private static Element element(String name, String text) {
        return new Element(name, CF).setText(text);
    }

    private static Content text(String value) {
        Content c = new Content();
        c.setType(Content.TEXT);
        c.setValue(value);
        return c;
    }

    private static Link link(String rel, String type, String href, String title) {
        Link l = new Link();
        l.setRel(rel);
        l.setType(type);
        l.setHref(href);
        l.setTitle(title);
        return l;
    }

    /**
     * {@code <cf:signal direction= magnitude= until= decidedBy= confidence= held=>} with
     * one {@code <cf:evidence value= field= offset= length= rule=>text</cf:evidence>} per
     * span behind a decided value and {@code <cf:review outcome= reviewedAt=/>} once
     * reviewed.
     */
    private static Element signal(ReadView.SignalView signal) {
        Element el = new Element("signal", CF);
        attribute(el, "direction", signal.direction());
        attribute(el, "magnitude", signal.magnitude());
        attribute(el, "until", signal.until());
        attribute(el, "decidedBy", signal.decidedBy());
        attribute(el, "confidence", signal.confidence());
        attribute(el, "held", signal.held());
        if (signal.evidence() != null) {
            for (Map.Entry<String, List<ReadView.Span>> v : signal.evidence().entrySet()) {
                for (ReadView.Span span : v.getValue() == null ? List.<ReadView.Span>of() : v.getValue()) {
                    Element ev = element("evidence", String.valueOf(span.text()));
                    ev.setAttribute("value", v.getKey());
                    attribute(ev, "field", span.field());
                    attribute(ev, "offset", span.offset());
                    attribute(ev, "length", span.length());
                    attribute(ev, "rule", span.rule());
                    el.addContent(ev);
                }
            }
        }
        if (signal.review() != null) {
            Element r = new Element("review", CF);
            attribute(r, "outcome", signal.review().outcome());
            attribute(r, "reviewedAt", signal.review().reviewedAt());
            el.addContent(r);
        }
        return el;
    }

    private static void attribute(Element el, String name, Object value) {
        if (value != null) {
            el.setAttribute(name, String.valueOf(value));
        }
    }

}
