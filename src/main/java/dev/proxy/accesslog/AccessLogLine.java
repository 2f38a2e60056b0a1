package dev.proxy.accesslog;

import dev.proxy.server.ExchangeRecord;

/**
 * A finished exchange waiting to be written.
 *
 * @param record       what happened
 * @param startMillis  wall-clock time the request arrived (epoch milliseconds)
 * @param requestCount requests seen by the access log since start, this one included
 */
record AccessLogLine(ExchangeRecord record, long startMillis, long requestCount) {
}
