package dev.proxy.server.forward;

/** Tells a load balancer how forwarding to one of its servers went (passive health checking). */
public interface ForwardOutcome {

    ForwardOutcome IGNORED = new ForwardOutcome() {
        @Override
        public void answered(Target target, int status) {
        }

        @Override
        public void failed(Target target) {
        }
    };

    /** The server answered with this status (a 5xx counts as a failure for passive health checks). */
    void answered(Target target, int status);

    /** The server could not be reached, closed the connection before answering, or timed out. */
    void failed(Target target);
}
