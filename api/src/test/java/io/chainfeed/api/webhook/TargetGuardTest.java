package io.chainfeed.api.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chainfeed.platform.net.FixedResolver;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TargetGuardTest {

    private static final Map<String, String[]> NAMES = Map.of("hooks.example.com",
            new String[] { "93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c" }, "internal.example.com",
            new String[] { "10.1.2.3" }, "metadata.example.com", new String[] { "169.254.169.254" },
            "mixed.example.com", new String[] { "93.184.215.14", "127.0.0.1" }, "v6-mapped.example.com",
            new String[] { "::ffff:192.168.0.1" }, "localhost", new String[] { "127.0.0.1", "::1" });

    private final TargetGuard strict = new TargetGuard(false, FixedResolver.of(NAMES));

    private final TargetGuard local = new TargetGuard(true, FixedResolver.of(NAMES));

    @Test
    void acceptsPublicHttpsAndHttpTargets() throws Exception {
        assertThat(strict.check("https://hooks.example.com/chainfeed?x=1").getHost()).isEqualTo("hooks.example.com");
        assertThat(strict.check("http://hooks.example.com:8443/in")).isNotNull();
        assertThat(strict.check("https://93.184.215.14/in")).isNotNull();
        assertThat(strict.check("https://[2606:4700:4700::1111]/in")).isNotNull();
    }

    @ParameterizedTest
    @ValueSource(strings = { "", "   ", "hooks.example.com/in", "ftp://hooks.example.com/", "file:///etc/passwd",
            "javascript:alert(1)", "https://user:pw@hooks.example.com/", "https://hooks.example.com/#frag",
            "https:///nohost", "https://hooks.example.com:0/", "https://hooks.example.com:70000/",
            "https://bücher.example/", "https://exa mple.com/" })
    void refusesMalformedOrUnsupportedUrls(String url) {
        assertThatThrownBy(() -> strict.check(url)).isInstanceOf(RefusedTargetException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = { "http://2130706433/", "http://0177.0.0.1/", "http://0x7f.0.0.1/", "http://0x7f000001/",
            "http://127.1/", "http://10.1/", "http://017700000001/", "http://1.2.3.04/", "http://192.168.1.1.5/" })
    void refusesIpv4LiteralsInAnyButDottedQuadForm(String url) {
        assertThatThrownBy(() -> strict.check(url)).isInstanceOf(RefusedTargetException.class)
            .hasMessageContaining("four decimal numbers");
    }

    @ParameterizedTest
    @ValueSource(strings = { "http://127.0.0.1/", "http://127.8.9.10:9000/", "http://localhost:8080/", "http://[::1]/",
            "http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/", "http://[0:0:0:0:0:ffff:7f00:1]/",
            "http://[::127.0.0.1]/", "http://10.0.0.1/", "http://172.16.5.4/", "http://192.168.1.1/",
            "http://169.254.169.254/latest/meta-data/", "http://100.64.0.1/", "http://0.0.0.0/", "http://[fe80::1]/",
            "http://[fd00::1]/", "http://[::ffff:10.0.0.1]/", "http://[64:ff9b::a9fe:a9fe]/",
            "http://[2002:c0a8:101::]/", "http://internal.example.com/", "http://metadata.example.com/",
            "http://mixed.example.com/", "http://v6-mapped.example.com/", "http://224.0.0.1/",
            "http://255.255.255.255/" })
    void refusesTargetsResolvingToLoopbackPrivateOrLinkLocal(String url) {
        assertThatThrownBy(() -> strict.check(url)).isInstanceOf(RefusedTargetException.class)
            .hasMessageContaining("public addresses");
    }

    @Test
    void refusesHostsThatDoNotResolve() {
        assertThatThrownBy(() -> strict.check("https://nowhere.invalid/")).isInstanceOf(RefusedTargetException.class)
            .hasMessageContaining("does not resolve");
    }

    @Test
    void theLoopbackSettingLetsOnlyLoopbackThrough() throws Exception {
        assertThat(local.check("http://127.0.0.1:8080/")).isNotNull();
        assertThat(local.check("http://localhost:8080/")).isNotNull();
        assertThat(local.check("http://[::1]:8080/")).isNotNull();
        assertThat(local.check("http://[::ffff:127.0.0.1]:8080/")).isNotNull();
        for (String url : new String[] { "http://10.0.0.1/", "http://169.254.169.254/", "http://[fe80::1]/",
                "http://internal.example.com/", "http://192.168.0.1/" }) {
            assertThatThrownBy(() -> local.check(url)).as(url).isInstanceOf(RefusedTargetException.class);
        }
        assertThatThrownBy(() -> local.check("http://2130706433/")).isInstanceOf(RefusedTargetException.class);
    }

    @Test
    void namesTheAddressAndTheReason() {
        assertThatThrownBy(() -> strict.check("http://metadata.example.com/"))
            .hasMessage("the host metadata.example.com resolves to 169.254.169.254, link-local:"
                    + " webhooks go only to public addresses");
    }

}
