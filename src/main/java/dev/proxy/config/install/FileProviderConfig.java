package dev.proxy.config.install;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;

/**
 * {@code providers.file}: dynamic configuration from a YAML file or a directory of them.
 *
 * @param filename  one file
 * @param directory every {@code *.yml}/{@code *.yaml} file in it
 * @param watch     reload on change (default true)
 */
public record FileProviderConfig(@Nullable String filename, @Nullable String directory, @Nullable Boolean watch) {

    public FileProviderConfig {
        watch = watch == null || watch;
        boolean hasFile = filename != null && !filename.isBlank();
        boolean hasDir = directory != null && !directory.isBlank();
        if (hasFile == hasDir) {
            throw new InvalidValueException(hasFile ? "directory" : "filename",
                    "set exactly one of providers.file.filename and providers.file.directory");
        }
    }
}
