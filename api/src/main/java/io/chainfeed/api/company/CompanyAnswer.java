package io.chainfeed.api.company;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.chainfeed.api.chain.ChainViews;
import io.chainfeed.api.reads.ReadView;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * {@code GET /api/v1/companies/{company}}: a company, the layers it owns and its exposure
 * to tight layers upstream.
 *
 * @param id the company's id
 * @param name its name
 * @param symbol its canonical listing's display symbol
 * @param aliases other names
 * @param listings every listing, the canonical one first
 * @param layers the layers it owns, with their largest causes
 * @param exposure tight layers upstream that squeeze it
 * @param asOf with {@code asOf=}: the instant of the chain's state (UTC); absent for the
 * live state
 * @param latestReads its newest reads (at most 10)
 * @param disclaimer research, not advice
 */
public record CompanyAnswer(String id, String name, String symbol, List<String> aliases, List<Listing> listings,
        List<OwnedLayer> layers, List<Exposure> exposure, @JsonInclude(JsonInclude.Include.NON_NULL) String asOf,
        List<ReadView> latestReads, String disclaimer) {

    /**
     * A listing of a company.
     *
     * @param symbol the display symbol ({@code TSM}, {@code 2330.TW})
     * @param mic the exchange's ISO 10383 market identifier
     * @param localSymbol the exchange-local symbol
     */
    @Schema(name = "CompanyListing")
    public record Listing(String symbol, String mic, String localSymbol) {
    }

    /**
     * A layer the company owns.
     *
     * @param id the layer's id
     * @param name its name
     * @param status loose, balanced, tight or critical
     * @param pressure its pressure
     * @param trend rising, falling or steady
     * @param causes its largest causes (at most 3)
     */
    public record OwnedLayer(String id, String name, String status, double pressure, String trend,
            List<ChainViews.Cause> causes) {
    }

    /**
     * A tight layer upstream that squeezes the company.
     *
     * @param tightLayer the tight layer's id
     * @param tightLayerName its name
     * @param status tight or critical
     * @param pressure its pressure
     * @param viaLayer the layer of the company's it is squeezed through
     * @param hops edges between them
     * @param causes the ids of the signals behind it
     * @param signals those signals, largest contribution first
     */
    public record Exposure(String tightLayer, String tightLayerName, String status, double pressure, String viaLayer,
            int hops, List<String> causes, List<ChainViews.Cause> signals) {
    }

}
