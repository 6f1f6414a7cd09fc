package io.chainfeed.api.reference;

import io.chainfeed.api.support.kafka.CompactedTopicView;
import io.chainfeed.avro.Company;
import io.chainfeed.platform.kafka.KafkaConnectionProperties;
import io.chainfeed.schemas.CompanyDirectory;
import io.chainfeed.schemas.Topics;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.stereotype.Component;

/**
 * The companies' reference data (names, aliases, listings) in memory, from the compacted
 * {@value Topics#COMPANIES} topic (see {@link CompactedTopicView}), as a
 * {@link CompanyDirectory} rebuilt after each change.
 */
@Component
public class ReferenceCompanies extends CompactedTopicView<Company> {

    private volatile CompanyDirectory directory = CompanyDirectory.empty();

    private volatile boolean stale = true;

    ReferenceCompanies(KafkaConnectionProperties kafka, MeterRegistry meters) {
        super(kafka.bootstrapServers(), Topics.COMPANIES, "chainfeed-api-reference-companies", Company.class, meters);
    }

    /**
     * @return the directory over every company read so far (empty until the topic is
     * read)
     */
    public CompanyDirectory directory() {
        if (stale) {
            synchronized (this) {
                if (stale) {
                    stale = false;
                    directory = CompanyDirectory.of(values());
                }
            }
        }
        return directory;
    }

    @Override
    protected void changed(String key, Company value) {
        stale = true;
    }

}
