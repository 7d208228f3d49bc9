package dev.fleche.transport.http1;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Example requests parsed whole, split in two at every byte position, and fed one byte at a time: every way of
 * feeding must give exactly the expected head, body, trailers and leftover bytes.
 */
class RequestExamplesTest {

    static Stream<Arguments> examples() {
        return Stream.of(
                Arguments.of("GET with headers",
                        "GET /index.html?q=1&r=%20 HTTP/1.1\r\nHost: example.com\r\nUser-Agent: t/1\r\n"
                                + "Accept: */*\r\nX-Empty:\r\nX-Pad: \t padded  value \t\r\nx-lower: v\r\n\r\n",
                        """
                        method=GET
                        target=/index.html?q=1&r=%20
                        path=/index.html
                        query=q=1&r=%20
                        version=1.1
                        host=example.com
                        contentLength=-1
                        chunked=false
                        hasBody=false
                        keepAlive=true
                        expectContinue=false
                        headers=[Host=example.com, User-Agent=t/1, Accept=*/*, X-Empty=, X-Pad=padded  value, \
                        x-lower=v]
                        body=
                        """),
                Arguments.of("absolute-form overrides Host",
                        "GET http://Example.COM:8080/a/b?x=1 HTTP/1.1\r\nHost: other.example\r\n\r\n",
                        """
                        method=GET
                        target=http://Example.COM:8080/a/b?x=1
                        path=/a/b
                        query=x=1
                        version=1.1
                        host=Example.COM:8080
                        contentLength=-1
                        chunked=false
                        hasBody=false
                        keepAlive=true
                        expectContinue=false
                        headers=[Host=other.example]
                        body=
                        """),
                Arguments.of("absolute-form without path",
                        "GET https://[::1]:8443?q HTTP/1.1\r\nHost: [::1]:8443\r\n\r\n",
                        """
                        method=GET
                        target=https://[::1]:8443?q
                        path=/
                        query=q
                        version=1.1
                        host=[::1]:8443
                        contentLength=-1
                        chunked=false
                        hasBody=false
                        keepAlive=true
                        expectContinue=false
                        headers=[Host=[::1]:8443]
                        body=
                        """),
                Arguments.of("OPTIONS asterisk-form",
                        "OPTIONS * HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
                        """
                        method=OPTIONS
                        target=*
                        path=*
                        query=null
                        version=1.1
                        host=a
                        contentLength=-1
                        chunked=false
                        hasBody=false
                        keepAlive=false
                        expectContinue=false
                        headers=[Host=a, Connection=close]
                        body=
                        """),
                Arguments.of("POST with Content-Length, then a pipelined request",
                        "\r\nPOST /form HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\nExpect: 100-continue\r\n\r\n"
                                + "hello\r\nbody" + "GET / HT",
                        """
                        method=POST
                        target=/form
                        path=/form
                        query=null
                        version=1.1
                        host=a
                        contentLength=11
                        chunked=false
                        hasBody=true
                        keepAlive=true
                        expectContinue=true
                        headers=[Host=a, Content-Length=11, Expect=100-continue]
                        body=hello\r
                        body
                        rest=GET / HT
                        """),
                Arguments.of("chunked with extensions and trailers",
                        "POST /up HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
                                + "5;name=value\r\nhello\r\n"
                                + "18 ; a = \"q\\\"s;\" ;b\r\n, and a few more bytes!!\r\n"
                                + "0\r\nChecksum: abc\r\nX-Trailer:  t \r\n\r\n"
                                + "NEXT",
                        """
                        method=POST
                        target=/up
                        path=/up
                        query=null
                        version=1.1
                        host=a
                        contentLength=-1
                        chunked=true
                        hasBody=true
                        keepAlive=true
                        expectContinue=false
                        headers=[Host=a, Transfer-Encoding=chunked]
                        trailers=[Checksum=abc, X-Trailer=t]
                        body=hello, and a few more bytes!!
                        rest=NEXT
                        """),
                Arguments.of("HTTP/1.0 keep-alive without Host, obs-text value",
                        "HEAD /x HTTP/1.0\r\nConnection: Keep-Alive\r\nX-Name: caf\u00e9 \u00ff\r\n\r\n",
                        """
                        method=HEAD
                        target=/x
                        path=/x
                        query=null
                        version=1.0
                        host=null
                        contentLength=-1
                        chunked=false
                        hasBody=false
                        keepAlive=true
                        expectContinue=false
                        headers=[Connection=Keep-Alive, X-Name=caf\u00e9 \u00ff]
                        body=
                        """),
                Arguments.of("CONNECT authority-form",
                        "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
                        """
                        method=CONNECT
                        target=example.com:443
                        path=example.com:443
                        query=null
                        version=1.1
                        host=example.com:443
                        contentLength=-1
                        chunked=false
                        hasBody=false
                        keepAlive=true
                        expectContinue=false
                        headers=[Host=example.com:443]
                        body=
                        """));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void parsesWhole(String name, String request, String expected) throws RequestException {
        assertEquals(expected, MessageDriver.whole(MessageDriver.bytes(request)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void parsesSplitAtEveryPosition(String name, String request, String expected) throws RequestException {
        byte[] message = MessageDriver.bytes(request);
        for (int at = 0; at <= message.length; at++) {
            assertEquals(expected, MessageDriver.splitAt(message, at), "split at " + at);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void parsesOneByteAtATime(String name, String request, String expected) throws RequestException {
        assertEquals(expected, MessageDriver.byteByByte(MessageDriver.bytes(request)));
    }
}
