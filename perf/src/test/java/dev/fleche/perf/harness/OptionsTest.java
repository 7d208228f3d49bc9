package dev.fleche.perf.harness;

import dev.fleche.perf.loadgen.LoadSpec;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

class OptionsTest {

    @Test
    void sizesTakeBinaryUnits() {
        assertEquals(1L << 30, Options.bytes("--transfer-bytes", "1g"));
        assertEquals(4L << 20, Options.bytes("--transfer-bytes", "4M"));
        assertEquals(1000, Options.bytes("--transfer-bytes", "1000"));
        assertThrows(IllegalArgumentException.class, () -> Options.bytes("--transfer-bytes", "0"));
        assertThrows(IllegalArgumentException.class, () -> Options.bytes("--transfer-bytes", "x"));
        assertThrows(IllegalArgumentException.class, () -> Options.bytes("--transfer-bytes", "99999999999g"));
    }

    @Test
    void transferServersGetA64MiBHeapAndEveryOtherFlag() {
        Options o = Options.parse(new String[] {"--flags", "-Xms512m -XX:+UseSerialGC -Xmx512m -Dx=1"});
        assertEquals("-XX:+UseSerialGC -Dx=1 -Xms64m -Xmx64m", o.transferFlags());
    }

    @Test
    void defaultsAndSmokeSizes() {
        Options full = Options.parse(new String[0]);
        assertEquals(10_000, full.sse);
        assertEquals(1L << 30, full.transferBytes);
        assertEquals(Duration.ofSeconds(1), full.sseInterval());
        Options smoke = Options.parse(new String[] {"--smoke"});
        assertEquals(50, smoke.sse);
        assertEquals(4L << 20, smoke.transferBytes);
        assertEquals(Duration.ofMillis(50), smoke.sseInterval());
        Options given = Options.parse(new String[] {"--smoke", "--sse", "7", "--transfer-bytes", "2m"});
        assertEquals(7, given.sse);
        assertEquals(2L << 20, given.transferBytes);
    }

    @Test
    void jitWarmupIsOffUnlessGiven() {
        assertEquals(0, Options.parse(new String[0]).jitWarmup);
        assertEquals(15, Options.parse(new String[] {"--jit-warmup", "15"}).jitWarmup);
        assertThrows(IllegalArgumentException.class, () -> Options.parse(new String[] {"--jit-warmup", "-1"}));
    }

    @Test
    void scenariosFollowTheOptions() {
        Map<String, Scenario> s = Scenario.all(Options.parse(new String[] {"--sse", "123", "--transfer-bytes", "3m"}));
        assertEquals(123, s.get("sse").connections());
        assertEquals("/download?bytes=" + (3L << 20), s.get("download").path());
        assertEquals("3 MiB", Scenario.size(3L << 20));
        assertEquals("1 GiB", Scenario.size(1L << 30));
        assertEquals("1000 bytes", Scenario.size(1000));
    }

    @Test
    void theSmokeCoversEveryKnownTarget() {
        Options smoke = Options.parse(new String[] {"--smoke"});
        Map<String, Target> known = Target.defaults();
        smoke.applySuite(known);
        assertEquals(new java.util.TreeSet<>(known.keySet()), new java.util.TreeSet<>(smoke.targets));
    }

    @Test
    void theTlsSuiteRunsEveryHttpsVariantOnTheSameGeneratedStores() {
        Options o = Options.parse(new String[] {"--suite", "tls"});
        Map<String, Target> known = Target.defaults();
        o.applySuite(known);
        assertEquals(2 * Target.WITH_TLS.size(), o.targets.size());
        assertEquals(Options.TLS_SCENARIOS, o.scenarios);
        Target netty = known.get("netty-tls-rsa");
        assertEquals(TlsKeys.KeyType.RSA, netty.tls());
        assertEquals(known.get("netty").command() + " --tls perf/results/tmp/tls/rsa.p12 " + TlsKeys.PASSWORD,
                netty.command());
        Map<String, Scenario> s = Scenario.all(o);
        for (String name : Options.TLS_SCENARIOS) { // only the HTTPS variants run them, and nothing else
            assertTrue(netty.can(s.get(name).feature()), name);
            assertFalse(known.get("netty").can(s.get(name).feature()), name);
        }
        assertFalse(netty.can(s.get("hello").feature()));
        assertEquals(LoadSpec.Tls.FULL, s.get("tls-handshake-full").tls());
        assertTrue(s.get("tls-handshake-resumed").connectionPerRequest());
        assertEquals(LoadSpec.Tls.RESUME, s.get("tls-handshake-resumed").tls());
    }

    @Test
    void anAddedTargetMayNameItsEndpoints() {
        Options o = Options.parse(new String[] {"--target", "a[hello,json]=bin/a PORT", "--target", "b=bin/b PORT"});
        assertEquals("bin/a PORT", o.extraTargets.get("a"));
        assertEquals(java.util.Set.of("hello", "json"), o.extraFeatures.get("a"));
        assertEquals("bin/b PORT", o.extraTargets.get("b"));
        assertFalse(o.extraFeatures.containsKey("b"), "every endpoint");
    }
}
