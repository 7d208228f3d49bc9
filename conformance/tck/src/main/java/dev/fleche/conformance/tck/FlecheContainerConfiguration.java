package dev.fleche.conformance.tck;

import org.jboss.arquillian.container.spi.ConfigurationException;
import org.jboss.arquillian.container.spi.client.container.ContainerConfiguration;

/**
 * Settings of the Fleche Arquillian container ({@code arquillian.xml} properties of the same names). By default
 * the address is the TCK's own: the system properties {@code webServerHost} and {@code webServerPort}, to which
 * the TCK's clients send their requests.
 */
public class FlecheContainerConfiguration implements ContainerConfiguration {
    private String bindHost = System.getProperty("webServerHost", "localhost");
    private int bindPort = Integer.getInteger("webServerPort", 8080);
    private int stopGraceMillis = 2000;
    private String protocolCensusFile = System.getProperty("fleche.tck.protocolCensus");

    /** The interface to listen on (a host name or address). */
    public String getBindHost() {
        return bindHost;
    }

    public void setBindHost(String bindHost) {
        this.bindHost = bindHost;
    }

    /** The port to listen on: the TCK's {@code webServerPort}. */
    public int getBindPort() {
        return bindPort;
    }

    public void setBindPort(int bindPort) {
        this.bindPort = bindPort;
    }

    /** How long requests in flight may take to finish when the container stops. */
    public int getStopGraceMillis() {
        return stopGraceMillis;
    }

    public void setStopGraceMillis(int stopGraceMillis) {
        this.stopGraceMillis = stopGraceMillis;
    }

    /**
     * Where to write the {@link ProtocolCensus} (requests by protocol version and client), or none: the system
     * property {@code fleche.tck.protocolCensus}, set by the pom.
     */
    public String getProtocolCensusFile() {
        return protocolCensusFile;
    }

    public void setProtocolCensusFile(String protocolCensusFile) {
        this.protocolCensusFile = protocolCensusFile;
    }

    @Override
    public void validate() throws ConfigurationException {
        if (bindHost == null || bindHost.isBlank()) {
            throw new ConfigurationException("bindHost is required (or the system property webServerHost)");
        }
        if (bindPort <= 0 || bindPort > 65535) {
            throw new ConfigurationException("bindPort must be 1..65535 (the TCK's webServerPort), was " + bindPort);
        }
        if (stopGraceMillis < 0) {
            throw new ConfigurationException("stopGraceMillis must be >= 0");
        }
    }
}
