package dev.fleche.perf.peers.netty;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleche.perf.app.EventData;
import dev.fleche.perf.app.Item;
import dev.fleche.perf.app.Message;
import dev.fleche.perf.app.PeerTls;
import dev.fleche.perf.app.Peers;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Transport-ceiling peer: raw Netty 4.2 with {@link HttpServerCodec} on the NIO transport.
 *
 * <p>One boss thread, a worker group of Netty's default size (2 x cores). Endpoints (the benchmark contract, see
 * perf/README.md): {@code GET /hello} answers {@code 200 text/plain "Hello, World!"}; {@code GET /json} and
 * {@code POST /echo} use Jackson; {@code GET /async?delayMs=N} answers from the channel's event loop after N ms;
 * {@code GET /poll}, {@code GET /waiting}, {@code POST /broadcast} are the long-poll trio; {@code GET /sse},
 * {@code GET /sse/subscribers}, {@code POST /sse/broadcast} the SSE trio (the subscribers are a
 * {@link ChannelGroup}, and a broadcast is one {@code writeAndFlush} to the group); {@code POST /upload} counts
 * the body's bytes as they pass; {@code GET /download?bytes=N} writes N zeros, chunked, 64 KiB at a time while
 * the channel is writable; anything else {@code 404}. No aggregator: only {@code /echo} collects its body.
 * Keep-alive is honoured ({@link HttpUtil#isKeepAlive}); pipelined requests are answered in order, and responses
 * are flushed once per read batch ({@code channelReadComplete}), as in Netty's own hello-world example.
 *
 * <p>Usage: {@code java -jar netty-peer.jar PORT [HOST] [--tls KEYSTORE PASSWORD]}; prints {@code READY <port>}
 * once listening. With {@code --tls} (see {@link PeerTls}) an {@link SslHandler} from
 * {@code SslContextBuilder.forServer(keyManagers)} with {@link SslProvider#JDK} (the JDK's {@code SSLEngine}, no
 * OpenSSL) goes first in every pipeline; protocols and cipher suites are Netty's defaults for that provider.
 */
public final class NettyPeer {

    private static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NOT_FOUND = "Not Found".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] BAD_REQUEST = "Bad Request".getBytes(StandardCharsets.US_ASCII);
    private static final int CHUNK = 64 * 1024;
    private static final ByteBuf ZEROS = Unpooled.unreleasableBuffer(Unpooled.directBuffer(CHUNK).writeZero(CHUNK));
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ConcurrentLinkedQueue<Waiter> WAITING = new ConcurrentLinkedQueue<>();
    private static final AtomicInteger WAITING_COUNT = new AtomicInteger();
    private static final ChannelGroup SUBSCRIBERS = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private static final AtomicLong SENT = new AtomicLong();

    private NettyPeer() {
    }

    public static void main(String[] args) throws Exception {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
        String host = Peers.host(args);
        PeerTls tls = PeerTls.fromArgs(args);
        SslContext ssl = tls == null ? null
                : SslContextBuilder.forServer(tls.keyManagers()).sslProvider(SslProvider.JDK).build();

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
                            if (ssl != null) {
                                ch.pipeline().addLast("tls", ssl.newHandler(ch.alloc()));
                            }
                            ch.pipeline().addLast("codec", new HttpServerCodec());
                            ch.pipeline().addLast("bench", new BenchHandler());
                        }
                    });
            Channel ch = b.bind(new InetSocketAddress(host, port)).sync().channel();
            System.out.println("READY " + ((InetSocketAddress) ch.localAddress()).getPort());
            System.out.flush();
            ch.closeFuture().sync();
        } finally {
            boss.shutdownGracefully();
            workers.shutdownGracefully();
        }
    }

    /** A suspended {@code /poll}: where to answer and how. */
    private record Waiter(ChannelHandlerContext ctx, boolean keepAlive) {
    }

    /** Per channel (it keeps the body of an {@code /echo}, and the state of an upload or download, in progress). */
    static final class BenchHandler extends SimpleChannelInboundHandler<HttpObject> {
        private CompositeByteBuf echoBody;
        private boolean echoKeepAlive;
        private long uploaded = -1;
        private boolean uploadKeepAlive;
        private long downloadLeft = -1;
        private boolean downloadKeepAlive;

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) throws Exception {
            if (msg instanceof HttpRequest req) {
                request(ctx, req);
            }
            if (msg instanceof HttpContent content && echoBody != null) {
                echoBody.addComponent(true, content.content().retain());
                if (msg instanceof LastHttpContent) {
                    echo(ctx);
                }
            } else if (msg instanceof HttpContent content && uploaded >= 0) {
                uploaded += content.content().readableBytes();
                if (msg instanceof LastHttpContent) {
                    send(ctx, uploadKeepAlive, response(ctx, HttpResponseStatus.OK, TEXT,
                            Long.toString(uploaded).getBytes(StandardCharsets.US_ASCII)), false);
                    uploaded = -1;
                }
            }
        }

        private void request(ChannelHandlerContext ctx, HttpRequest req) {
            if (req.decoderResult().isFailure()) {
                FullHttpResponse bad = response(ctx, HttpResponseStatus.BAD_REQUEST, TEXT, BAD_REQUEST);
                bad.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
                ctx.writeAndFlush(bad).addListener(ChannelFutureListener.CLOSE);
                return;
            }
            boolean keepAlive = HttpUtil.isKeepAlive(req);
            QueryStringDecoder uri = new QueryStringDecoder(req.uri());
            String path = uri.path();
            boolean get = req.method() == HttpMethod.GET;
            if (get && path.equals("/hello")) {
                send(ctx, keepAlive, response(ctx, HttpResponseStatus.OK, TEXT, HELLO), false);
            } else if (get && path.equals("/json")) {
                send(ctx, keepAlive, response(ctx, HttpResponseStatus.OK, APPLICATION_JSON,
                        json(new Message("Hello, World!"))), false);
            } else if (req.method() == HttpMethod.POST && path.equals("/echo")) {
                echoBody = ctx.alloc().compositeBuffer();
                echoKeepAlive = keepAlive;
            } else if (get && path.equals("/async")) {
                long delay = longParam(uri, "delayMs", 130);
                ctx.executor().schedule(() -> send(ctx, keepAlive, response(ctx, HttpResponseStatus.OK, TEXT, HELLO),
                        true), delay, TimeUnit.MILLISECONDS);
            } else if (get && path.equals("/poll")) {
                WAITING.add(new Waiter(ctx, keepAlive));
                WAITING_COUNT.incrementAndGet();
            } else if (get && path.equals("/waiting")) {
                send(ctx, keepAlive, response(ctx, HttpResponseStatus.OK, TEXT, ascii(WAITING_COUNT.get())), false);
            } else if (req.method() == HttpMethod.POST && path.equals("/broadcast")) {
                int n = 0;
                for (Waiter w; (w = WAITING.poll()) != null; n++) {
                    WAITING_COUNT.decrementAndGet();
                    send(w.ctx(), w.keepAlive(), response(w.ctx(), HttpResponseStatus.OK, TEXT, HELLO), true);
                }
                send(ctx, keepAlive, response(ctx, HttpResponseStatus.OK, TEXT, ascii(n)), false);
            } else if (get && path.equals("/sse")) {
                subscribe(ctx);
            } else if (get && path.equals("/sse/subscribers")) {
                send(ctx, keepAlive, response(ctx, HttpResponseStatus.OK, TEXT, ascii(SUBSCRIBERS.size())), false);
            } else if (req.method() == HttpMethod.POST && path.equals("/sse/broadcast")) {
                String event = "data: " + EventData.of(SENT.incrementAndGet()) + "\n\n";
                SUBSCRIBERS.writeAndFlush(new DefaultHttpContent(Unpooled.copiedBuffer(event, StandardCharsets.US_ASCII)));
                send(ctx, keepAlive, response(ctx, HttpResponseStatus.OK, TEXT, ascii(SUBSCRIBERS.size())), false);
            } else if (req.method() == HttpMethod.POST && path.equals("/upload")) {
                uploaded = 0;
                uploadKeepAlive = keepAlive;
            } else if (get && path.equals("/download")) {
                download(ctx, longParam(uri, "bytes", 0), keepAlive);
            } else {
                send(ctx, keepAlive, response(ctx, HttpResponseStatus.NOT_FOUND, TEXT, NOT_FOUND), false);
            }
        }

        private void echo(ChannelHandlerContext ctx) throws IOException {
            Item item;
            try (ByteBufInputStream in = new ByteBufInputStream(echoBody, true)) {
                item = JSON.readValue((InputStream) in, Item.class);
            } finally {
                echoBody = null;
            }
            send(ctx, echoKeepAlive, response(ctx, HttpResponseStatus.OK, APPLICATION_JSON, json(item)), false);
        }

        /** Sends the stream's head and joins the group (which drops the channel when it closes). */
        private static void subscribe(ChannelHandlerContext ctx) {
            DefaultHttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
            head.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream")
                    .set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
            ctx.writeAndFlush(head);
            SUBSCRIBERS.add(ctx.channel());
        }

        private void download(ChannelHandlerContext ctx, long bytes, boolean keepAlive) {
            DefaultHttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
            head.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/octet-stream")
                    .set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
            ctx.write(head);
            downloadLeft = bytes;
            downloadKeepAlive = keepAlive;
            writeDownload(ctx);
        }

        /** Writes download chunks while the channel is writable; the rest when it is writable again. */
        private void writeDownload(ChannelHandlerContext ctx) {
            while (downloadLeft > 0 && ctx.channel().isWritable()) {
                int n = (int) Math.min(CHUNK, downloadLeft);
                ctx.write(new DefaultHttpContent(ZEROS.duplicate().writerIndex(n)), ctx.voidPromise());
                downloadLeft -= n;
            }
            if (downloadLeft > 0) {
                ctx.flush();
                return;
            }
            downloadLeft = -1;
            if (downloadKeepAlive) {
                ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT, ctx.voidPromise());
            } else {
                ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT).addListener(ChannelFutureListener.CLOSE);
            }
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (downloadLeft > 0 && ctx.channel().isWritable()) {
                writeDownload(ctx);
            }
            ctx.fireChannelWritabilityChanged();
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (echoBody != null) {
                echoBody.release();
                echoBody = null;
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    private static final String TEXT = "text/plain";
    private static final String APPLICATION_JSON = "application/json";

    /** Writes {@code res}; flushes at once when {@code flush} (answers from outside a read batch). */
    private static void send(ChannelHandlerContext ctx, boolean keepAlive, FullHttpResponse res, boolean flush) {
        if (keepAlive) {
            if (flush) {
                ctx.writeAndFlush(res, ctx.voidPromise());
            } else {
                ctx.write(res, ctx.voidPromise());
            }
        } else {
            res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(res).addListener(ChannelFutureListener.CLOSE);
        }
    }

    private static FullHttpResponse response(ChannelHandlerContext ctx, HttpResponseStatus status, String type,
                                             byte[] body) {
        ByteBuf content = ctx.alloc().buffer(body.length).writeBytes(body);
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, content);
        res.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, type)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        return res;
    }

    private static byte[] json(Object value) {
        try {
            return JSON.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] ascii(int n) {
        return Integer.toString(n).getBytes(StandardCharsets.US_ASCII);
    }

    private static long longParam(QueryStringDecoder uri, String name, long otherwise) {
        List<String> values = uri.parameters().get(name);
        return values == null || values.isEmpty() ? otherwise : Long.parseLong(values.get(0));
    }
}
