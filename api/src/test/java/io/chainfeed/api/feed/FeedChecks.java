package io.chainfeed.api.feed;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import com.rometools.rome.feed.atom.Feed;
import com.rometools.rome.io.WireFeedInput;
import com.thaiopensource.util.PropertyMapBuilder;
import com.thaiopensource.validate.ValidateProperty;
import com.thaiopensource.validate.ValidationDriver;
import com.thaiopensource.validate.rng.CompactSchemaReader;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import org.w3c.dom.Document;
import org.xml.sax.ErrorHandler;
import org.xml.sax.InputSource;
import org.xml.sax.SAXParseException;

/**
 * Independent checks of the feeds, shared by the unit tests and {@code FeedsIT}: the Atom
 * feed against RFC 4287's RELAX NG grammar with Jing plus the grammar's two Schematron
 * rules, read back with Rome; the JSON Feed against a JSON Schema of the JSON Feed 1.1
 * spec (see {@code feeds/README.md}).
 */
public final class FeedChecks {

    private FeedChecks() {
    }

    /**
     * Validates an Atom document with Jing against {@code feeds/atom-rfc4287.rnc} and
     * checks the rules the grammar states as Schematron annotations, which Jing does not
     * run.
     * @return the Jing errors (empty when valid); the Schematron rules are asserted
     */
    public static List<String> atomErrors(byte[] xml) throws Exception {
        List<String> errors = new ArrayList<>();
        ErrorHandler collect = new ErrorHandler() {
            public void warning(SAXParseException e) {
            }

            public void error(SAXParseException e) {
                errors.add(e.getLineNumber() + ":" + e.getColumnNumber() + " " + e.getMessage());
            }

            public void fatalError(SAXParseException e) {
                error(e);
            }
        };
        PropertyMapBuilder props = new PropertyMapBuilder();
        props.put(ValidateProperty.ERROR_HANDLER, collect);
        ValidationDriver driver = new ValidationDriver(props.toPropertyMap(), CompactSchemaReader.getInstance());
        assertThat(driver
            .loadSchema(new InputSource(FeedChecks.class.getResource("/feeds/atom-rfc4287.rnc").toExternalForm())))
            .as("the RFC 4287 grammar loads")
            .isTrue();
        boolean valid = driver.validate(new InputSource(new ByteArrayInputStream(xml)));
        assertThat(valid).as("Jing's verdict agrees with its errors: %s", errors).isEqualTo(errors.isEmpty());

        Document dom = parse(xml);
        var xpath = XPathFactory.newInstance().newXPath();
        xpath.setNamespaceContext(new javax.xml.namespace.NamespaceContext() {
            public String getNamespaceURI(String prefix) {
                return "a".equals(prefix) ? "http://www.w3.org/2005/Atom" : XMLConstants.NULL_NS_URI;
            }

            public String getPrefix(String uri) {
                return null;
            }

            public java.util.Iterator<String> getPrefixes(String uri) {
                return null;
            }
        });
        assertThat((Boolean) xpath.evaluate("/a:feed/a:author or not(/a:feed/a:entry[not(a:author)])", dom,
                XPathConstants.BOOLEAN))
            .as("an author on the feed or on every entry")
            .isTrue();
        assertThat(((Number) xpath.evaluate(
                "count(/a:feed/a:entry[not(a:link[@rel='alternate'] or a:link[not(@rel)] " + "or a:content)])", dom,
                XPathConstants.NUMBER))
            .intValue()).as("entries without an alternate link or content").isZero();
        return errors;
    }

    /** Parses XML with DOCTYPEs refused, so no entity is expanded or fetched. */
    public static Document parse(byte[] xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        f.setXIncludeAware(false);
        f.setExpandEntityReferences(false);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(xml));
    }

    /** Reads an Atom document back with Rome (DOCTYPEs refused). */
    public static Feed readAtom(byte[] xml) throws Exception {
        WireFeedInput in = new WireFeedInput();
        in.setAllowDoctypes(false);
        return (Feed) in.build(new InputStreamReader(new ByteArrayInputStream(xml), StandardCharsets.UTF_8));
    }

    /**
     * Validates a JSON Feed against {@code feeds/jsonfeed-1.1.schema.json}, URL and
     * date-time formats asserted.
     * @return the violations, empty when valid
     */
    public static Set<ValidationMessage> jsonFeedErrors(byte[] json) throws Exception {
        JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
        SchemaValidatorsConfig config = SchemaValidatorsConfig.builder().formatAssertionsEnabled(true).build();
        JsonSchema schema;
        try (InputStream in = FeedChecks.class.getResourceAsStream("/feeds/jsonfeed-1.1.schema.json")) {
            schema = factory.getSchema(new String(in.readAllBytes(), StandardCharsets.UTF_8), config);
        }
        return schema.validate(new ObjectMapper().readTree(json));
    }

    /**
     * @return the JSON tree of a JSON Feed
     */
    public static JsonNode readJson(byte[] json) throws Exception {
        return new ObjectMapper().readTree(json);
    }

}
