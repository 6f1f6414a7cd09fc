package io.chainfeed.schemas;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.Listing;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.ReadKind;
import java.util.List;

/**
 * Builders for the reference and read records that tests in several modules make the same
 * way; shared through this module's test jar.
 */
public final class SampleRecords {

    private SampleRecords() {
    }

    /**
     * @param id the company id
     * @param name its name
     * @param aliases its other names
     * @param primaryLayer the id of the layer it mainly works in
     * @param listings its listings, none for a private company
     * @return the company record
     */
    public static Company company(String id, String name, List<String> aliases, String primaryLayer,
            Listing... listings) {
        return Company.newBuilder()
            .setId(id)
            .setName(name)
            .setAliases(aliases)
            .setListings(List.of(listings))
            .setPrimaryLayer(primaryLayer)
            .build();
    }

    /**
     * @param symbol the exchange's own symbol
     * @param mic the exchange's market identifier code
     * @param display the symbol as shown, e.g. {@code 2330.TW}
     * @return the listing
     */
    public static Listing listing(String symbol, String mic, String display) {
        return Listing.newBuilder().setSymbol(symbol).setMic(mic).setDisplaySymbol(display).build();
    }

    /**
     * @param id the layer id
     * @param name its name
     * @param summary its one-line summary
     * @param upstream the ids of the layers it depends on
     * @return a layer without aliases, at version 1
     */
    public static ChainLayer layer(String id, String name, String summary, String... upstream) {
        return ChainLayer.newBuilder()
            .setId(id)
            .setName(name)
            .setSummary(summary)
            .setAliases(List.of())
            .setUpstream(List.of(upstream))
            .setVersion(1)
            .build();
    }

    /**
     * @param id the read id, {@code <kind>:<slug>}
     * @param kind the read's kind
     * @param title its title
     * @param summary its summary
     * @return a builder with id, kind, slug (the part of the id after the colon), title
     * and summary set; the caller sets the rest
     */
    public static Read.Builder read(String id, ReadKind kind, String title, String summary) {
        return Read.newBuilder()
            .setId(id)
            .setKind(kind)
            .setSlug(id.substring(id.indexOf(':') + 1))
            .setTitle(title)
            .setSummary(summary);
    }

}
