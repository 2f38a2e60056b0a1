package dev.proxy.tls.acme;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.type.Argument;
import io.micronaut.serde.ObjectMapper;
import io.micronaut.serde.annotation.Serdeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code storage} JSON file of one or more ACME resolvers, one section per resolver name, laid out like
 * Traefik's {@code acme.json}: {@code {"<resolver>": {"Account": {…}, "Certificates": [{"domain": {"main", "sans"},
 * "certificate", "key", "Store"}]}}}, where certificate and key are base64 of their PEM text. Certificates of a
 * Traefik file are therefore read as they are (its account is not: a new one is registered).
 *
 * <p>The file holds private keys: it is written with mode 0600 (on POSIX file systems), to a temporary file first and
 * then renamed, so a crash never leaves half a file. Not thread-safe: used from the resolvers' single thread.
 */
final class AcmeStorage {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(AcmeStorage.class);

    private static final Argument<Map<String, Section>> FORMAT =
            Argument.mapOf(Argument.STRING, Argument.of(Section.class));

    private final Path file;
    private final ObjectMapper json = ObjectMapper.getDefault();

    /** One resolver's part of the file. */
    @Serdeable
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Section(@JsonProperty("Account") @Nullable Account account,
                   @JsonProperty("Certificates") @Nullable List<StoredCertificate> certificates) {
        Section {
            certificates = certificates == null ? List.of() : List.copyOf(certificates);
        }
    }

    /**
     * @param email      the contact it was registered with
     * @param location   its URL at the CA
     * @param keyPair    the account key pair, PEM
     * @param caServer   the CA it belongs to (an account is valid at one CA only)
     */
    @Serdeable
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Account(@JsonProperty("Email") @Nullable String email, @JsonProperty("Location") @Nullable String location,
                   @JsonProperty("KeyPair") @Nullable String keyPair,
                   @JsonProperty("CaServer") @Nullable String caServer) {
    }

    @Serdeable
    @JsonIgnoreProperties(ignoreUnknown = true)
    record StoredCertificate(@JsonProperty("domain") @Nullable StoredDomain domain,
                             @JsonProperty("certificate") @Nullable String certificate,
                             @JsonProperty("key") @Nullable String key,
                             @JsonProperty("Store") @Nullable String store) {
    }

    @Serdeable
    @JsonIgnoreProperties(ignoreUnknown = true)
    record StoredDomain(@JsonProperty("main") @Nullable String main, @JsonProperty("sans") @Nullable List<String> sans) {
    }

    AcmeStorage(Path file) {
        this.file = file;
    }

    Path file() {
        return file;
    }

    /** A resolver's section; empty when the file or the section does not exist. */
    Section read(String resolver) throws IOException {
        Section s = readAll().get(resolver);
        return s == null ? new Section(null, null) : s;
    }

    /** Replaces a resolver's section, keeping the others. */
    void write(String resolver, Section section) throws IOException {
        Map<String, Section> all = new TreeMap<>();
        try {
            all.putAll(readAll());
        } catch (IOException | RuntimeException unreadable) {
            // Never overwrite what cannot be read (another resolver's section, a hand-edited file): keep it aside.
            Path aside = file.resolveSibling(file.getFileName() + ".unreadable-" + System.currentTimeMillis());
            Files.move(file, aside);
            // The parser's message may quote the file, which holds private keys: only the kind of error is logged.
            LOG.error("{} could not be read ({}); moved to {}", file, unreadable.getClass().getSimpleName(), aside);
        }
        all.put(resolver, section);
        byte[] bytes = json.writeValueAsBytes(all);
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = dir.resolve("." + file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        try {
            Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException notPosix) {
            Files.createFile(tmp);
        } catch (FileAlreadyExistsException raced) {
            throw new IOException("another process writes " + tmp, raced);
        }
        Files.write(tmp, bytes);
        try {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private Map<String, Section> readAll() throws IOException {
        if (!Files.exists(file) || Files.size(file) == 0) {
            return Map.of();
        }
        Map<String, Section> all = json.readValue(Files.readString(file, StandardCharsets.UTF_8), FORMAT);
        return all == null ? Map.of() : new LinkedHashMap<>(all);
    }
}
