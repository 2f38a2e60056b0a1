package dev.proxy.testing.consul;

import java.io.IOException;

/** Runs a Consul agent process somewhere: by the project's scripts, or in a container. */
interface ConsulRuntime {

    /** Starts the agent and returns once it has a leader (and its tokens exist). */
    ConsulEndpoints start() throws IOException;

    /** Stops the agent; stopping a stopped agent does nothing. */
    void stop() throws IOException;
}
