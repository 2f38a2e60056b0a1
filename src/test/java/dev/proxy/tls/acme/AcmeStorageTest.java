package dev.proxy.tls.acme;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The resolvers' storage file and the renewal time (the Pebble IT covers the rest end to end). */
class AcmeStorageTest {

    @TempDir
    Path dir;

    private static AcmeStorage.Section section(String main) {
        return new AcmeStorage.Section(new AcmeStorage.Account("ops@example.com", "https://ca/acct/1", "PEM", "https://ca"),
                List.of(new AcmeStorage.StoredCertificate(new AcmeStorage.StoredDomain(main, List.of("www." + main)),
                        "Y2VydA==", "a2V5", "default")));
    }

    @Test
    void sectionsOfSeveralResolversShareOneFileReadableByItsOwnerOnly() throws Exception {
        AcmeStorage storage = new AcmeStorage(dir.resolve("acme.json"));
        storage.write("le", section("a.example.com"));
        storage.write("other", section("b.example.com"));
        storage.write("le", section("c.example.com"));

        AcmeStorage again = new AcmeStorage(dir.resolve("acme.json"));
        assertThat(again.read("le")).isEqualTo(section("c.example.com"));
        assertThat(again.read("other")).isEqualTo(section("b.example.com"));
        assertThat(again.read("missing")).isEqualTo(new AcmeStorage.Section(null, null));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("acme.json"))))
                .isEqualTo("rw-------");
        assertThat(Files.list(dir).map(p -> p.getFileName().toString())).containsExactly("acme.json");
    }

    @Test
    void readsTheCertificatesOfATraefikFile() throws Exception {
        Files.writeString(dir.resolve("acme.json"), """
                {"le": {
                  "Account": {"Email": "ops@example.com", "Registration": {"body": {"status": "valid"}, "uri": "https://ca/acct/9"},
                              "PrivateKey": "MIIE...", "KeyType": "4096"},
                  "Certificates": [{"domain": {"main": "a.example.com", "sans": ["www.a.example.com"]},
                                    "certificate": "Y2VydA==", "key": "a2V5", "Store": "default"}]
                }}
                """);
        AcmeStorage.Section le = new AcmeStorage(dir.resolve("acme.json")).read("le");
        assertThat(le.certificates()).containsExactly(new AcmeStorage.StoredCertificate(
                new AcmeStorage.StoredDomain("a.example.com", List.of("www.a.example.com")), "Y2VydA==", "a2V5", "default"));
        assertThat(le.account().keyPair()).as("Traefik's account key is not ours").isNull();
    }

    @Test
    void anUnreadableFileIsMovedAsideInsteadOfOverwritten() throws Exception {
        Files.writeString(dir.resolve("acme.json"), "{not json");
        new AcmeStorage(dir.resolve("acme.json")).write("le", section("a.example.com"));
        assertThat(new AcmeStorage(dir.resolve("acme.json")).read("le")).isEqualTo(section("a.example.com"));
        assertThat(Files.list(dir).map(p -> p.getFileName().toString()))
                .anyMatch(n -> n.startsWith("acme.json.unreadable-"));
    }

    @ParameterizedTest(name = "a {0} certificate is renewed {1} before it expires")
    @CsvSource({
            "P90D, P30D",
            "P365D, P30D",
            "P6D, P2D",
            "PT30S, PT10S",
    })
    void renewsThirtyDaysOrAThirdOfTheLifetimeBeforeExpiry(Duration lifetime, Duration before) {
        Instant notBefore = Instant.parse("2026-01-01T00:00:00Z");
        Instant notAfter = notBefore.plus(lifetime);
        assertThat(AcmeResolver.renewalTime(notBefore, notAfter)).isEqualTo(notAfter.minus(before));
    }
}
