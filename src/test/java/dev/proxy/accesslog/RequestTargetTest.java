package dev.proxy.accesslog;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RequestTargetTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            no query                 | /a/b                                   | /a/b
            plain parameters         | /search?q=x&page=2                     | /search?q=x&page=2
            access token             | /cb?access_token=abc&state=1           | /cb?access_token=REDACTED&state=1
            any case, api key        | /x?API_KEY=k&Api-Key=k2                | /x?API_KEY=REDACTED&Api-Key=REDACTED
            pre-signed URL           | /o?X-Amz-Credential=c&X-Amz-Signature=s&X-Amz-Expires=60 | /o?X-Amz-Credential=REDACTED&X-Amz-Signature=REDACTED&X-Amz-Expires=60
            name without value       | /x?token&password=                     | /x?token&password=REDACTED
            empty query and fragments | /x?&&                                 | /x?&&
            """)
    void credentialsInTheQueryAreRedacted(String name, String target, String logged) {
        assertThat(RequestTarget.redacted(target)).isEqualTo(logged);
    }
}
