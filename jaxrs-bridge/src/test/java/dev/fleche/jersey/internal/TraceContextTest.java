package dev.fleche.jersey.internal;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The W3C Trace Context rules, case by case (section numbers of https://www.w3.org/TR/trace-context/). */
class TraceContextTest {
    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String PARENT = "00f067aa0ba902b7";

    @Test
    void version00() {
        assertEquals(new TraceContext.Parent(TRACE, PARENT, "01"),
                TraceContext.parseParent("00-" + TRACE + "-" + PARENT + "-01"));
        assertEquals(new TraceContext.Parent(TRACE, PARENT, "00"),
                TraceContext.parseParent("00-" + TRACE + "-" + PARENT + "-00"));
    }

    @Test
    void invalidVersion00() {
        String[] invalid = {
            "00-" + TRACE + "-" + PARENT + "-01-",                   // 00 is exactly 55 characters
            "00-" + TRACE + "-" + PARENT + "-1",                     // short flags
            "00-" + TRACE.toUpperCase() + "-" + PARENT + "-01",      // HEXDIGLC only
            "00-" + TRACE + "-" + PARENT.toUpperCase() + "-01",
            "00-" + TRACE + "-" + PARENT + "-0g",                    // flags are hex
            "00-" + "0".repeat(32) + "-" + PARENT + "-01",           // 3.2.2.3: all-zero trace-id
            "00-" + TRACE + "-" + "0".repeat(16) + "-01",            // 3.2.2.4: all-zero parent-id
            "00_" + TRACE + "-" + PARENT + "-01",
            "00-" + TRACE + "_" + PARENT + "-01",
            "00-" + TRACE + "-" + PARENT + "_01",
            " 00-" + TRACE + "-" + PARENT + "-01",
            "",
            "00",
        };
        for (String value : invalid) {
            assertNull(TraceContext.parseParent(value), value);
        }
        assertNull(TraceContext.parseParent(null));
    }

    @Test
    void laterVersions() {
        // 3.2.4: a higher version is parsed as 00 for its first 55 characters; what follows must start with '-'
        assertEquals(new TraceContext.Parent(TRACE, PARENT, "03"),
                TraceContext.parseParent("01-" + TRACE + "-" + PARENT + "-03"));
        assertEquals(new TraceContext.Parent(TRACE, PARENT, "09"),
                TraceContext.parseParent("fe-" + TRACE + "-" + PARENT + "-09-anything"));
        assertNull(TraceContext.parseParent("01-" + TRACE + "-" + PARENT + "-03x"));
        assertNull(TraceContext.parseParent("ff-" + TRACE + "-" + PARENT + "-01"), "ff is an invalid version");
        assertNull(TraceContext.parseParent("0G-" + TRACE + "-" + PARENT + "-01"));
        assertNull(TraceContext.parseParent("AB-" + TRACE + "-" + PARENT + "-01"));
    }

    @Test
    void tracestate() {
        assertEquals("congo=t61rcWkgMzE", TraceContext.validState("congo=t61rcWkgMzE"));
        assertEquals("rojo=00f067aa0ba902b7,congo=t61rcWkgMzE",
                TraceContext.validState("rojo=00f067aa0ba902b7,congo=t61rcWkgMzE"));
        assertEquals("a=1 , ,b=2", TraceContext.validState("a=1 , ,b=2"), "empty members and OWS are allowed");
        assertEquals("a=x y", TraceContext.validState("a=x y"), "a space inside a value");
        assertEquals("tenant1@vendor=x", TraceContext.validState("tenant1@vendor=x"));
        assertEquals("1tenant@vendor=x", TraceContext.validState("1tenant@vendor=x"));
        String[] invalid = {"", " , ", "Congo=x", "1congo=x", "congo", "congo=", "=x", "congo=a,b",
            "congo=x=y", "co ngo=x", "t@Vendor=x", "t@=x", "@v=x", "t@v" + "v".repeat(14) + "=x",
            "congo=\u00e9", "k=" + "v".repeat(257)};
        for (String value : invalid) {
            assertNull(TraceContext.validState(value), value);
        }
        StringBuilder members = new StringBuilder("k0=v");
        for (int i = 1; i < 32; i++) {
            members.append(",k").append(i).append("=v");
        }
        assertEquals(members.toString(), TraceContext.validState(members.toString()), "32 members");
        assertNull(TraceContext.validState(members + ",k32=v"), "33 members");
    }

    @Test
    void requestIds() {
        assertTrue(RequestIds.wellFormed("Az09._:-"));
        assertTrue(RequestIds.wellFormed("x".repeat(128)));
        assertFalse(RequestIds.wellFormed("x".repeat(129)));
        assertFalse(RequestIds.wellFormed(""));
        assertFalse(RequestIds.wellFormed(null));
        assertFalse(RequestIds.wellFormed("a b"));
        assertFalse(RequestIds.wellFormed("a\tb"));
        RequestIds ids = new RequestIds("cafe");
        assertEquals("cafe-1", ids.next());
        assertEquals("cafe-2", ids.next());
    }
}
