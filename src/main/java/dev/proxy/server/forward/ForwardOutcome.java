package dev.proxy.server.forward;

/** Tells a load balancer how forwarding to one of its servers went (passive health checking). */
public interface ForwardOutcome {

    ForwardOutcome IGNORED = new ForwardOutcome() {
        @Override
        public void succeeded(Target target) {
        }

        @Override
        public void failed(Target target) {
        }
    };

    void succeeded(Target target);

    /** The server could not be reached, closed the connection before answering, or timed out. */
    void failed(Target target);
}
