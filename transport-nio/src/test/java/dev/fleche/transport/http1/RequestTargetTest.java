package dev.fleche.transport.http1;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The four request-target forms (RFC 9112 3.2): what path, query and host each yields, and what is refused. */
class RequestTargetTest {

    private static String parse(String method, String target) {
        byte[] buf = MessageDriver.bytes(method + " " + target + " HTTP/1.1\r\nHost: h\r\n\r\n");
        RequestHeadParser parser = new RequestHeadParser(256, 256, 8);
        try {
            parser.parse(buf, 0, buf.length);
            RequestHead head = parser.take();
            return head.path() + " " + head.query() + " " + head.host();
        } catch (RequestException e) {
            return e.rule().name();
        }
    }

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource(delimiter = '|', value = {
        "GET     | /                        | / null h",
        "GET     | /a/b?                    | /a/b  h",
        "GET     | /a?b?c=d                 | /a b?c=d h",
        "GET     | //a                      | //a null h",
        "GET     | /%2F;x=1:@!$&()*+,~_.-   | /%2F;x=1:@!$&()*+,~_.- null h",
        "GET     | /a?/b?c:@%41             | /a /b?c:@%41 h",
        "POST    | /a                       | /a null h",
        "DELETE  | http://x/a?b              | /a b x",
        "CONNECT | x:1                      | x:1 null h",
        "GET     | http://x                 | / null x",
        "GET     | HTTP://x:1/p?q           | /p q x:1",
        "GET     | https://x/?              | /  x",
        "GET     | http://x?q/z             | / q/z x",
        "OPTIONS | *                        | * null h",
        "OPTIONS | http://x                 | / null x",
        "CONNECT | x.example:443            | x.example:443 null h",
        "CONNECT | [::1]:443                | [::1]:443 null h",
        "GET     | *                        | ASTERISK_FORM_MISUSED",
        "OPTIONS | **                       | TARGET_INVALID",
        "GET     | a/b                      | TARGET_INVALID",
        "GET     | x:80                     | AUTHORITY_FORM_MISUSED",
        "OPTIONS | [::1]:8080               | AUTHORITY_FORM_MISUSED",
        "POST    | x.example:443            | AUTHORITY_FORM_MISUSED",
        "GET     | /%zz;x                   | ORIGIN_FORM_INVALID",
        "GET     | /a%2                     | ORIGIN_FORM_INVALID",
        "GET     | /a#frag                  | ORIGIN_FORM_INVALID",
        "GET     | /a<b>                    | ORIGIN_FORM_INVALID",
        "GET     | /a\\b                    | ORIGIN_FORM_INVALID",
        "GET     | /{x}                     | ORIGIN_FORM_INVALID",
        "GET     | /a?b#c                   | ORIGIN_FORM_INVALID",
        "GET     | /a?{b}^c%zz              | /a {b}^c%zz h",
        "GET     | /a\"b                     | ORIGIN_FORM_INVALID",
        "GET     | http://x/a#f             | ABSOLUTE_FORM_INVALID",
        "GET     | http://x/%g0             | ABSOLUTE_FORM_INVALID",
        "GET     | http://x?a#b             | ABSOLUTE_FORM_INVALID",
        "GET     | http://x/a^b             | ABSOLUTE_FORM_INVALID",
        "PUT     | *                        | ASTERISK_FORM_MISUSED",
        "CONNECT | *                        | AUTHORITY_FORM_INVALID",
        "GET     | ftp://x/                 | ABSOLUTE_FORM_INVALID",
        "GET     | http:/x                  | TARGET_INVALID",
        "GET     | http:///p                | ABSOLUTE_FORM_INVALID",
        "GET     | http://u@x/              | ABSOLUTE_FORM_INVALID",
        "GET     | http://x:y/              | ABSOLUTE_FORM_INVALID",
        "CONNECT | x.example                | AUTHORITY_FORM_INVALID",
        "CONNECT | x.example:               | AUTHORITY_FORM_INVALID",
        "CONNECT | /                        | AUTHORITY_FORM_INVALID",
        "CONNECT | http://x:1/              | AUTHORITY_FORM_INVALID",
    })
    void forms(String method, String target, String expected) {
        assertEquals(expected, parse(method, target));
    }
}
