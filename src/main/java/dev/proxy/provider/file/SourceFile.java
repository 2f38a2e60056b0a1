package dev.proxy.provider.file;

import java.nio.file.Path;

/** One configuration file as read: its path and its text. Equal when the content is equal. */
record SourceFile(Path path, String content) {

    String fileName() {
        return path.getFileName().toString();
    }
}
