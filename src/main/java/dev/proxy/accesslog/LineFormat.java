package dev.proxy.accesslog;

import java.io.ByteArrayOutputStream;
import java.io.IOException;

/** Writes one access log line (with its newline). Used by the writer thread only. */
interface LineFormat {

    void write(AccessLogLine line, ByteArrayOutputStream out) throws IOException;
}
