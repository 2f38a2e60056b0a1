package dev.proxy.middleware;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * The user and password of an {@code Authorization: Basic} header. The password stays raw bytes (htpasswd hashes
 * bytes; no charset guess) and is never logged or printed.
 */
record BasicCredentials(String user, byte[] password) {

    /** Longer headers are refused before decoding; real credentials are far shorter. */
    static final int MAX_HEADER_LENGTH = 4096;

    /** The credentials, or null when the header is missing, repeated or malformed (the caller answers 401). */
    static BasicCredentials parse(List<String> authorization) {
        if (authorization.size() != 1) {
            return null;
        }
        String h = authorization.get(0);
        if (h.length() > MAX_HEADER_LENGTH || h.length() < 6 || !h.regionMatches(true, 0, "Basic ", 0, 6)) {
            return null;
        }
        byte[] decoded;
        try {
            decoded = Base64.getDecoder().decode(h.substring(6).trim());
        } catch (IllegalArgumentException notBase64) {
            return null;
        }
        int colon = -1;
        for (int i = 0; i < decoded.length; i++) {
            if (decoded[i] == ':') {
                colon = i;
                break;
            }
        }
        if (colon < 0) {
            return null;
        }
        return new BasicCredentials(new String(decoded, 0, colon, StandardCharsets.UTF_8),
                Arrays.copyOfRange(decoded, colon + 1, decoded.length));
    }

    @Override
    public String toString() {
        return "BasicCredentials[user=" + user + ", password=****]";
    }
}
