package dev.proxy.server;

/**
 * Told about every finished exchange (access log, metrics). Called on the connection's event loop, so it must be
 * quick and must not block: hand the record to a queue if there is real work to do.
 */
public interface ExchangeListener {

    void completed(ExchangeRecord record);
}
