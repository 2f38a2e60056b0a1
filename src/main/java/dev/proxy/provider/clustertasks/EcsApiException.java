package dev.proxy.provider.clustertasks;

/**
 * A failed AWS call of the {@code clusterTasks} provider: any one fails the whole refresh, so that the last good
 * configuration stays. The message names the operation (also the IAM action it needs) and never a credential.
 */
public final class EcsApiException extends RuntimeException {

    /** How a call failed. */
    public enum Kind { THROTTLED, ACCESS_DENIED, FAILED }

    private final String operation;
    private final Kind kind;

    public EcsApiException(String operation, Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.operation = operation;
        this.kind = kind;
    }

    /** {@code service:Operation}, e.g. {@code ecs:DescribeTasks}: also the IAM action. */
    public String operation() {
        return operation;
    }

    public Kind kind() {
        return kind;
    }
}
