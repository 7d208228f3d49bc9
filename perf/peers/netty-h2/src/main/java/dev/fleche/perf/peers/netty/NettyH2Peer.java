package dev.fleche.perf.peers.netty;

import dev.fleche.perf.app.PeerTls;
import dev.fleche.perf.app.Peers;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http2.AbstractHttp2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2SecurityUtil;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.ApplicationProtocolNegotiationHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.SupportedCipherSuiteFilter;
import io.netty.util.AsciiString;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * HTTP/2 transport-ceiling peer (perf/h2bench.sh): Netty 4.2's HTTP/2 codec in the shape of Netty's own
 * {@code http2/helloworld} server, its fastest: one {@link Http2ConnectionHandler} per connection whose frame
 * listener answers on the connection's event loop (no child channel per stream, no HTTP/1 object translation);
 * the handler flushes once per read batch.
 *
 * <p>{@code GET /hello} answers {@code 200 text/plain "Hello, World!"} (any other path {@code 404}). Clear text is
 * h2c by prior knowledge only: the pipeline is the HTTP/2 handler alone, which expects the client preface. With
 * {@code --tls KEYSTORE PASSWORD} (see {@link PeerTls}) an {@code SslHandler} from the JDK provider
 * ({@link SslProvider#JDK}, no OpenSSL) with Netty's HTTP/2 cipher list, ALPN offering {@code h2} only, then the
 * same handler once h2 is chosen. One boss thread, a worker group of Netty's default size (2 x cores); Netty's
 * default HTTP/2 settings.
 *
 * <p>Usage: {@code java -jar netty-h2-peer.jar PORT [HOST] [--tls KEYSTORE PASSWORD]}; prints {@code READY <port>}.
 */
public final class NettyH2Peer {

    private static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NOT_FOUND = "Not Found".getBytes(StandardCharsets.US_ASCII);
    private static final AsciiString HELLO_PATH = AsciiString.cached("/hello");
    private static final AsciiString TEXT = AsciiString.cached("text/plain");

    private NettyH2Peer() {
    }

    public static void main(String[] args) throws Exception {
        Peers.quietLogging();
        int port = Peers.port(args);
        String host = Peers.host(args);
        PeerTls tls = PeerTls.fromArgs(args);
        SslContext ssl = tls == null ? null : SslContextBuilder.forServer(tls.keyManagers())
                .sslProvider(SslProvider.JDK)
                .ciphers(Http2SecurityUtil.CIPHERS, SupportedCipherSuiteFilter.INSTANCE)
                .applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                        ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                        ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                        ApplicationProtocolNames.HTTP_2))
                .build();

        EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        EventLoopGroup workers = new MultiThreadIoEventLoopGroup(NioIoHandler.newFactory());
        try {
            ServerBootstrap b = new ServerBootstrap()
                    .group(boss, workers)
                    .channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_BACKLOG, 4096)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            if (ssl == null) {
                                ch.pipeline().addLast(new HelloHandlerBuilder().build());
                            } else {
                                ch.pipeline().addLast(ssl.newHandler(ch.alloc()), new Alpn());
                            }
                        }
                    });
            Channel ch = b.bind(new InetSocketAddress(host, port)).sync().channel();
            Peers.ready(((InetSocketAddress) ch.localAddress()).getPort());
            ch.closeFuture().sync();
        } finally {
            boss.shutdownGracefully();
            workers.shutdownGracefully();
        }
    }

    /** After the TLS handshake: the HTTP/2 handler when ALPN chose h2, else the connection closes. */
    private static final class Alpn extends ApplicationProtocolNegotiationHandler {
        Alpn() {
            super(ApplicationProtocolNames.HTTP_2);
        }

        @Override
        protected void configurePipeline(ChannelHandlerContext ctx, String protocol) {
            if (ApplicationProtocolNames.HTTP_2.equals(protocol)) {
                ctx.pipeline().addLast(new HelloHandlerBuilder().build());
            } else {
                ctx.close();
            }
        }
    }

    /** Builds a {@link HelloHandler} with Netty's default settings, as the builder's subclassing contract asks. */
    private static final class HelloHandlerBuilder
            extends AbstractHttp2ConnectionHandlerBuilder<HelloHandler, HelloHandlerBuilder> {
        @Override
        public HelloHandler build() {
            return super.build();
        }

        @Override
        protected HelloHandler build(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder,
                                     Http2Settings initialSettings) {
            HelloHandler handler = new HelloHandler(decoder, encoder, initialSettings);
            frameListener(handler.listener);
            return handler;
        }
    }

    /** The connection: answers each request when its headers end the stream (a GET carries no body). */
    private static final class HelloHandler extends Http2ConnectionHandler {
        final Http2FrameAdapter listener = new Http2FrameAdapter() {
            @Override
            public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                                      boolean endOfStream) {
                if (endOfStream) {
                    respond(ctx, streamId, HELLO_PATH.contentEquals(headers.path()));
                }
            }

            @Override
            public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers,
                                      int streamDependency, short weight, boolean exclusive, int padding,
                                      boolean endOfStream) {
                onHeadersRead(ctx, streamId, headers, padding, endOfStream);
            }

            @Override
            public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding,
                                  boolean endOfStream) {
                int consumed = data.readableBytes() + padding;
                if (endOfStream) {
                    respond(ctx, streamId, false);
                }
                return consumed;
            }
        };

        HelloHandler(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder, Http2Settings settings) {
            super(decoder, encoder, settings);
        }

        private void respond(ChannelHandlerContext ctx, int streamId, boolean hello) {
            byte[] body = hello ? HELLO : NOT_FOUND;
            Http2Headers headers = new DefaultHttp2Headers()
                    .status((hello ? HttpResponseStatus.OK : HttpResponseStatus.NOT_FOUND).codeAsText())
                    .set("content-type", TEXT)
                    .setInt("content-length", body.length);
            ByteBuf content = ctx.alloc().buffer(body.length).writeBytes(body);
            encoder().writeHeaders(ctx, streamId, headers, 0, false, ctx.voidPromise());
            encoder().writeData(ctx, streamId, content, 0, true, ctx.voidPromise());
        }
    }
}
