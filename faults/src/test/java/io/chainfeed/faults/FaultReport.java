package io.chainfeed.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;

/**
 * The results table of the fault tests, one Markdown row a scenario, appended to
 * {@code target/fault-report.md} (the source of the table in {@code docs/operations.md}).
 */
public final class FaultReport {

    private static final Path FILE = Path.of(System.getProperty("chainfeed.fault.run.dir", "target/fault-run"))
        .resolveSibling("fault-report.md");

    /**
     * How long a recovery may take before a fault test gives up: a guard against a hang,
     * not a target. Recovery times are measured and reported here, never asserted: the
     * machine is shared.
     */
    public static final Duration GIVE_UP_AFTER = Duration.ofMinutes(10);

    private FaultReport() {
    }

    /**
     * Appends one row.
     * @param scenario what happened
     * @param injected how the fault was injected
     * @param recovered from the fault to everything accounted for
     * @param lost acknowledged records not found, summed over the audits
     * @param duplicated acknowledged records found more than once, summed over the audits
     * @param notes anything else measured
     */
    /**
     * Appends a table of audits, one row an audit (owed, found exactly once, lost,
     * duplicated), under a heading.
     * @param heading what was audited
     * @param accounts the audits
     * @return the table, as appended
     */
    public static synchronized String accounts(String heading, java.util.List<Ledger.Account> accounts) {
        StringBuilder table = new StringBuilder(String.format(
                "%n%s%n%n| audit | owed | exactly once | lost |" + " duplicated |%n|---|---|---|---|---|%n", heading));
        for (Ledger.Account a : accounts) {
            table.append(String.format("| %s | %d | %d | %d | %d |%n", a.where(), a.owed(),
                    a.owed() - a.lost().size() - a.duplicated().size(), a.lost().size(), a.duplicated().size()));
        }
        try {
            Files.createDirectories(FILE.getParent());
            Files.writeString(FILE, table + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return table.toString();
    }

    public static synchronized void row(String scenario, String injected, Duration recovered, int lost, int duplicated,
            String notes) {
        try {
            if (!Files.exists(FILE)) {
                Files.createDirectories(FILE.getParent());
                Files.writeString(FILE, "| scenario | injected how | recovered in | lost | duplicated | notes |\n"
                        + "|---|---|---|---|---|---|\n");
            }
            Files.writeString(FILE, String.format("| %s | %s | %.1f s | %d | %d | %s |%n", scenario, injected,
                    recovered.toMillis() / 1000.0, lost, duplicated, notes), StandardOpenOption.APPEND);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

}
