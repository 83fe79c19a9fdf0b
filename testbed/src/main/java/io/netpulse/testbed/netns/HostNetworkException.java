package io.netpulse.testbed.netns;

/** A host network could not be built, used or torn down; the message is one line saying what and where. */
public class HostNetworkException extends RuntimeException {
    public HostNetworkException(String message) {
        super(message);
    }

    public HostNetworkException(String message, Throwable cause) {
        super(message, cause);
    }
}
