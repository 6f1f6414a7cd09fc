package io.chainfeed.devstack;

import io.chainfeed.devstack.demo.DemoPartnerKey;
import io.chainfeed.devstack.keys.AdminKey;
import io.chainfeed.devstack.keys.SecretFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a stack keeps its files: {@code kafka/}, {@code elasticsearch/} (on a cluster
 * {@code kafka-<n>/} and {@code elasticsearch-<n>/} a node), {@code logs/<service>.log}
 * (and {@code .out}), {@code pids/<service>.pid}, {@code streams-state/<service>/}, the
 * admin key, the webhook master key, the demo page's partner key and
 * {@code control.sock}. Everything but the logs and the socket is data a run keeps for
 * the next one.
 *
 * @param root the run dir, absolute and normalized
 */
record RunDir(Path root) {
    private static final Logger LOG = LoggerFactory.getLogger(RunDir.class);

    /** The webhook master key's file name. */
    static final String WEBHOOK_MASTER_KEY_FILE = "webhook-master.key";

    RunDir {
        root = root.toAbsolutePath().normalize();
    }

    /** The embedded Kafka's run dir. */
    Path kafka() {
        return root.resolve("kafka");
    }

    /**
     * A broker's run dir: {@link #kafka()} for a broker alone, else
     * {@code kafka-<node id>}.
     * @param nodeId the broker's node id, from 1
     * @param brokers how many brokers the stack has
     */
    Path kafka(int nodeId, int brokers) {
        return brokers == 1 ? kafka() : root.resolve("kafka-" + nodeId);
    }

    /** The embedded Elasticsearch's run dir. */
    Path elasticsearch() {
        return root.resolve("elasticsearch");
    }

    /**
     * An Elasticsearch node's run dir: {@link #elasticsearch()} for a node alone, else
     * {@code elasticsearch-<n>} from 1.
     */
    Path elasticsearch(int node, int nodes) {
        return nodes == 1 ? elasticsearch() : root.resolve("elasticsearch-" + node);
    }

    /** The logs dir. */
    Path logs() {
        return root.resolve("logs");
    }

    /** A service's rolling log file, {@code logs/<service>.log}. */
    Path serviceLog(String service) {
        return logs().resolve(service + ".log");
    }

    /** A service's pid file, {@code pids/<service>.pid}. */
    Path pidFile(String service) {
        return root.resolve("pids").resolve(service + ".pid");
    }

    /**
     * A service's own Kafka Streams state dir: two Streams instances must never share
     * one.
     */
    Path streamsState(String service) {
        return root.resolve("streams-state").resolve(service);
    }

    /**
     * What {@code --fresh} deletes: everything a run keeps for the next one (Kafka logs,
     * Elasticsearch data, streams state, keys), except the logs.
     * @throws IOException when something cannot be deleted
     */
    void deleteKeptData() throws IOException {
        LOG.info("--fresh: deleting the data kept in {}", root);
        try (var dirs = Files.list(root)) {
            for (Path dir : (Iterable<Path>) dirs::iterator) {
                if (dir.getFileName().toString().matches("(kafka|elasticsearch)(-\\d+)?")) {
                    Processes.deleteTree(dir.resolve("data"));
                }
            }
        }
        Processes.deleteTree(root.resolve("streams-state"));
        Files.deleteIfExists(root.resolve(AdminKey.FILE));
        Files.deleteIfExists(root.resolve(WEBHOOK_MASTER_KEY_FILE));
        Files.deleteIfExists(root.resolve(DemoPartnerKey.FILE));
    }

    /**
     * The webhook master key of this run dir: {@value #WEBHOOK_MASTER_KEY_FILE}, base64
     * of 32 random bytes, made on first use (owner read/write only where the file system
     * has POSIX permissions) and kept across starts, so subscriptions kept on an external
     * Kafka can still sign.
     * @return the key file
     * @throws UncheckedIOException if it cannot be written
     */
    Path webhookMasterKeyFile() {
        Path file = root.resolve(WEBHOOK_MASTER_KEY_FILE);
        if (Files.isRegularFile(file)) {
            return file;
        }
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        try {
            Files.createDirectories(root);
            SecretFiles.writeOwnerOnly(file, Base64.getEncoder().encodeToString(key) + "\n");
            return file;
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot write the webhook master key " + file, e);
        }
    }
}
