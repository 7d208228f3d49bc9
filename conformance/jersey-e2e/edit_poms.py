#!/usr/bin/env python3
"""The local changes run.sh makes to Jersey's poms (conformance/README.md lists them):

1. In Jersey's root pom, tests/pom.xml and each e2e module's pom: the checkout's own version
   (<version>3.1.99-SNAPSHOT</version>, as project version and as parent version) becomes the released one (3.1.11),
   so that the parents resolve from the checkout and every Jersey artifact (${project.version}) from Maven Central.
   No other element changes.
2. In each e2e module's pom, the version of two kinds of test dependency that Maven Central lacks for the release:
   org.glassfish.jersey.security (oauth1-*, oauth2-client: their parent pom org.glassfish.jersey.security:project
   was not published for 3.1.11) -> 3.1.10; org.glassfish.jersey.incubator:jersey-injectless-client (published up to
   3.1.5; the "WithHK2" execution that run.sh runs leaves it off the class path anyway) -> 3.1.5; and, in
   tests/pom.xml's dependencyManagement, the four security artifacts at 3.1.10 too (else jersey-bom makes the
   oauth1-client's own oauth1-signature 3.1.11 again).
3. tests/pom.xml gains the profile "fleche-container": dev.fleche:fleche-jaxrs-bridge:${fleche.version}, test scope,
   on the class path of every test module. Off in the Grizzly leg, so that Grizzly runs without Fleche's jar.

usage: edit_poms.py SNAPSHOT RELEASE POM...
"""
import re
import sys

# groupId of a test dependency at ${project.version} -> the release to take instead (see 2. above)
PINNED = {
    "org.glassfish.jersey.security": "3.1.10",
    "org.glassfish.jersey.incubator": "3.1.5",
}
SECURITY_ARTIFACTS = ("oauth1-signature", "oauth1-client", "oauth1-server", "oauth2-client")
MANAGED = "".join("""
            <dependency>
                <groupId>org.glassfish.jersey.security</groupId>
                <artifactId>%s</artifactId>
                <version>%s</version>
            </dependency>""" % (a, PINNED["org.glassfish.jersey.security"]) for a in SECURITY_ARTIFACTS)
DEPENDENCY = re.compile(r"<dependency>.*?</dependency>", re.S)

PROFILE = """
        <!-- Added by Fleche's conformance/jersey-e2e/run.sh: Fleche's JerseyTest container on the class path. -->
        <profile>
            <id>fleche-container</id>
            <dependencies>
                <dependency>
                    <groupId>dev.fleche</groupId>
                    <artifactId>fleche-jaxrs-bridge</artifactId>
                    <version>${fleche.version}</version>
                    <scope>test</scope>
                </dependency>
            </dependencies>
        </profile>
"""


def main(snapshot, release, poms):
    old = "<version>%s</version>" % snapshot
    new = "<version>%s</version>" % release
    for pom in poms:
        with open(pom, encoding="utf-8") as f:
            text = f.read()
        count = text.count(old)
        if count == 0:
            sys.exit("%s: no %s" % (pom, old))
        text = text.replace(old, new)
        added = ""
        if "/tests/e2e" in pom:
            pinned = []

            def pin(match):
                block = match.group(0)
                group = re.search(r"<groupId>\s*([^<\s]+)\s*</groupId>", block)
                if group and group.group(1) in PINNED and "<version>${project.version}</version>" in block:
                    pinned.append(group.group(1))
                    return block.replace("<version>${project.version}</version>",
                                         "<version>%s</version>" % PINNED[group.group(1)])
                return block

            text = DEPENDENCY.sub(pin, text)
            added = ", %d test dependencies pinned (%s)" % (len(pinned), ", ".join(sorted(set(pinned))))
        if pom.endswith("/tests/pom.xml"):
            if "<profiles>" not in text:
                sys.exit("%s: no <profiles> to add the fleche-container profile to" % pom)
            text = text.replace("<profiles>", "<profiles>" + PROFILE, 1)
            marker = "<dependencyManagement>\n        <dependencies>"
            if marker not in text:
                sys.exit("%s: no dependencyManagement to pin the security artifacts in" % pom)
            text = text.replace(marker, marker + "\n            <!-- Added by Fleche's conformance/jersey-e2e/run.sh"
                                ": no org.glassfish.jersey.security:project 3.1.11 on Central. -->" + MANAGED, 1)
            added = ", profile fleche-container added, security artifacts managed at %s" % (
                PINNED["org.glassfish.jersey.security"])
        with open(pom, "w", encoding="utf-8") as f:
            f.write(text)
        print("  %s: %d x %s -> %s%s" % (pom, count, snapshot, release, added))


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
