package io.chainfeed.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaNodeTest {

    @TempDir
    Path tmp;

    @Test
    void serverPropertiesAreKraftCombinedOnLoopbackForOneNode() throws IOException {
        Map<String, String> props = KafkaNode.serverProperties(29092, 29093, Path.of("/r/data"), 3,
                KafkaNode.Membership.SINGLE, Map.of("log.retention.hours", "1"));
        Properties parsed = new Properties();
        parsed.load(new StringReader(KafkaNode.render(props)));

        assertThat(parsed).containsEntry("process.roles", "broker,controller")
            .containsEntry("node.id", "1")
            .containsEntry("controller.quorum.voters", "1@127.0.0.1:29093")
            .containsEntry("listeners", "PLAINTEXT://127.0.0.1:29092,CONTROLLER://127.0.0.1:29093")
            .containsEntry("advertised.listeners", "PLAINTEXT://127.0.0.1:29092")
            .containsEntry("controller.listener.names", "CONTROLLER")
            .containsEntry("log.dirs", "/r/data")
            .containsEntry("num.partitions", "3")
            .containsEntry("auto.create.topics.enable", "false")
            .containsEntry("offsets.topic.replication.factor", "1")
            .containsEntry("transaction.state.log.replication.factor", "1")
            .containsEntry("transaction.state.log.min.isr", "1")
            .containsEntry("group.initial.rebalance.delay.ms", "0")
            .containsEntry("log.retention.hours", "1");
    }

    @Test
    void aClusterMemberReplicatesDataAndInternalTopicsAndNeverElectsAnUncleanLeader() {
        KafkaNode.Membership member = new KafkaNode.Membership(2,
                "1@127.0.0.1:45010,2@127.0.0.1:45011,3@127.0.0.1:45012", "q1Sh-9_ISia_zwGINzRvyQ", 3, 2);
        Map<String, String> props = KafkaNode.serverProperties(45001, 45011, Path.of("/d"), 6, member, Map.of());
        assertThat(props).containsEntry("node.id", "2")
            .containsEntry("process.roles", "broker,controller")
            .containsEntry("controller.quorum.voters", "1@127.0.0.1:45010,2@127.0.0.1:45011,3@127.0.0.1:45012")
            .containsEntry("listeners", "PLAINTEXT://127.0.0.1:45001,CONTROLLER://127.0.0.1:45011")
            .containsEntry("default.replication.factor", "3")
            .containsEntry("min.insync.replicas", "2")
            .containsEntry("unclean.leader.election.enable", "false")
            .containsEntry("offsets.topic.replication.factor", "3")
            .containsEntry("transaction.state.log.replication.factor", "3")
            .containsEntry("transaction.state.log.min.isr", "2")
            .containsEntry("num.partitions", "6");
        assertThatThrownBy(() -> new KafkaNode.Membership(1, null, null, 3, 4))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void overridesWin() {
        Map<String, String> props = KafkaNode.serverProperties(1, 2, Path.of("/d"), 3, KafkaNode.Membership.SINGLE,
                Map.of("num.partitions", "6"));
        assertThat(props).containsEntry("num.partitions", "6");
    }

    @Test
    void log4jConfigWritesToTheGivenFile() throws IOException {
        Properties parsed = new Properties();
        parsed.load(new StringReader(KafkaNode.log4jProperties(Path.of("/r/logs/server.log"))));
        assertThat(parsed).containsEntry("log4j.rootLogger", "INFO, file")
            .containsEntry("log4j.appender.file.File", "/r/logs/server.log")
            .containsEntry("log4j.appender.file.layout.ConversionPattern", "[%d] %p %m (%c)%n")
            // Rolls instead of growing without bound, and appends across restarts.
            .containsEntry("log4j.appender.file", "org.apache.log4j.RollingFileAppender")
            .containsEntry("log4j.appender.file.MaxFileSize", "10MB")
            .containsEntry("log4j.appender.file.MaxBackupIndex", "5")
            .containsEntry("log4j.appender.file.Append", "true");
    }

    @Test
    void builderRejectsNonsense() {
        KafkaNode.Builder builder = KafkaNode.builder(tmp, tmp);
        assertThatThrownBy(() -> builder.port(70000)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.heap("lots")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.numPartitions(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void missingBrokerJarsAreNamedWithTheBuildCommand() {
        KafkaNode node = KafkaNode.builder(tmp.resolve("no-lib"), tmp.resolve("run")).port(0).controllerPort(0).build();
        assertThatThrownBy(node::start).hasMessageContaining("no Kafka broker jars")
            .hasMessageContaining("mvn -B -pl infra -am install");
    }

}
