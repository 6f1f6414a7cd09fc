package io.chainfeed.streams.tagging;

import io.chainfeed.avro.Read;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Decides whether a freshly tagged read is a new version of the read last published under
 * its id, and if so stamps it as one. Both the term tagging processor and the signal read
 * processor publish through it, so every read on {@code chainfeed.reads.v1} follows the
 * same rules:
 * <ul>
 * <li>A read whose content equals the last published one (every field but the version
 * bookkeeping: {@code version}, {@code sequence}, {@code previousVersion},
 * {@code changes}, {@code publishedAt}, {@code updatedAt}) is not a new version:
 * {@link #next} answers null and nothing is published.</li>
 * <li>{@code sequence}, the version people see, is 1 for the first version and one more
 * than the last published one after that (a read last published before sequences existed,
 * sequence 0, continues at 1).</li>
 * <li>{@code version}, the internal ordering key (the reads index's external version), is
 * the candidate key the caller computed (term or signal version, newest reference
 * timestamp: epoch milliseconds) but always at least one more than the last published
 * key, so the index never refuses a new version as stale.</li>
 * <li>{@code previousVersion} is the last published key, {@code changes} the difference
 * against it ({@link ReadChanges}), {@code publishedAt} the given instant.</li>
 * </ul>
 */
public final class ReadVersions {

    private ReadVersions() {
    }

    /**
     * Stamps {@code read} as the version after {@code last}, or answers null when it
     * changes nothing.
     * @param read a freshly tagged read (mutated and returned), its {@code version} the
     * candidate ordering key
     * @param last the read last published under the same id, or null when none was (or it
     * was deleted since)
     * @param publishedAt when this version is published (the processor's wall clock, UTC)
     * @return {@code read}, stamped, or null when its content equals {@code last}'s
     */
    public static Read next(Read read, Read last, Instant publishedAt) {
        Objects.requireNonNull(read, "read");
        Objects.requireNonNull(publishedAt, "publishedAt");
        if (last != null && sameContent(read, last)) {
            return null;
        }
        long key = read.getVersion();
        if (last != null) {
            key = Math.max(key, last.getVersion() + 1);
        }
        read.setVersion(key);
        read.setSequence(last == null ? 1 : last.getSequence() + 1);
        read.setPreviousVersion(last == null ? null : last.getVersion());
        read.setChanges(ReadChanges.between(last, read));
        read.setPublishedAt(publishedAt);
        return read;
    }

    /**
     * @return whether two versions of a read carry the same content: every field but
     * {@code version}, {@code sequence}, {@code previousVersion}, {@code changes},
     * {@code publishedAt} and {@code updatedAt}
     */
    public static boolean sameContent(Read a, Read b) {
        return a.getId().equals(b.getId()) && a.getKind() == b.getKind() && a.getSlug().equals(b.getSlug())
                && a.getTitle().equals(b.getTitle()) && a.getAliases().equals(b.getAliases())
                && a.getSummary().equals(b.getSummary()) && a.getSections().equals(b.getSections()) && sameTags(a, b)
                && a.getSources().equals(b.getSources()) && a.getDisclaimer().equals(b.getDisclaimer())
                && Objects.equals(a.getObservedAt(), b.getObservedAt());
    }

    /**
     * @return whether two reads carry the same layer, company and term tags (evidence and
     * confidence included)
     */
    public static boolean sameTags(Read a, Read b) {
        return sameList(a.getLayers(), b.getLayers()) && sameList(a.getCompanies(), b.getCompanies())
                && sameList(a.getTerms(), b.getTerms());
    }

    private static boolean sameList(List<?> a, List<?> b) {
        return Objects.equals(a, b);
    }

}
