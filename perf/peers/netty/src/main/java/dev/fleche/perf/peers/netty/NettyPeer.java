package dev.fleche.perf.peers.netty;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * Transport-ceiling peer: raw Netty 4.2 with {@link HttpServerCodec} on the NIO transport.
 *
 * <p>One boss thread, a worker group of Netty's default size (2 x cores). {@code GET /hello} answers
 * {@code 200 text/plain "Hello, World!"}, anything else {@code 404}. Keep-alive is honoured
 * ({@link HttpUtil#isKeepAlive}); pipelined requests are answered in order, and responses are flushed once per
 * read batch ({@code channelReadComplete}), as in Netty's own hello-world example.
 *
 * <p>Usage: {@code java -jar netty-peer.jar PORT}; prints {@code READY <port>} once listening.
 */
public final class NettyPeer {

    private static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NOT_FOUND = "Not Found".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] BAD_REQUEST = "Bad Request".getBytes(StandardCharsets.US_ASCII);

    private NettyPeer() {
    }

    public static void main(String[] args) throws Exception {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
        String host = args.length > 1 ? args[1] : "127.0.0.1";

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
                            ch.pipeline().addLast("codec", new HttpServerCodec());
                            ch.pipeline().addLast("hello", HelloHandler.INSTANCE);
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

    @ChannelHandler.Sharable
    static final class HelloHandler extends SimpleChannelInboundHandler<HttpObject> {
        static final HelloHandler INSTANCE = new HelloHandler();

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
            if (!(msg instanceof HttpRequest)) {
                return; // request body chunks / LastHttpContent: nothing to do for GET /hello
            }
            HttpRequest req = (HttpRequest) msg;
            if (req.decoderResult().isFailure()) {
                FullHttpResponse bad = response(ctx, HttpResponseStatus.BAD_REQUEST, BAD_REQUEST);
                bad.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
                ctx.writeAndFlush(bad).addListener(ChannelFutureListener.CLOSE);
                return;
            }
            boolean hello = req.method() == HttpMethod.GET && "/hello".equals(req.uri());
            FullHttpResponse res = hello
                    ? response(ctx, HttpResponseStatus.OK, HELLO)
                    : response(ctx, HttpResponseStatus.NOT_FOUND, NOT_FOUND);
            boolean keepAlive = HttpUtil.isKeepAlive(req);
            if (keepAlive) {
                if (!req.protocolVersion().isKeepAliveDefault()) {
                    res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
                }
                ctx.write(res, ctx.voidPromise());
            } else {
                res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
                ctx.write(res).addListener(ChannelFutureListener.CLOSE);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }

        private static FullHttpResponse response(ChannelHandlerContext ctx, HttpResponseStatus status, byte[] body) {
            ByteBuf content = ctx.alloc().buffer(body.length).writeBytes(body);
            FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, content);
            res.headers()
                    .set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.TEXT_PLAIN)
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
            return res;
        }
    }
}
