import Foundation
import Testing

@testable import EPFFetch

@Suite("~/.netrc")
struct NetrcTests {
    @Test func machineThenDefault() {
        let text = """
            # a comment line
            machine other.example login someone password one
            machine FEEDS.itunes.apple.com
              login partner
              password "not-quoted"

            macdef init
            machine feeds.itunes.apple.com login macro password macro

            default login anonymous password guest
            """
        let found = Netrc.credentials(in: text, host: "feeds.itunes.apple.com")
        #expect(found?.user == "partner")
        #expect(found?.authorization == "Basic " + Data("partner:\"not-quoted\"".utf8).base64EncodedString())
        #expect(Netrc.credentials(in: text, host: "mirror.example")?.user == "anonymous")
        #expect(Netrc.credentials(in: "machine a login x password y", host: "b") == nil)
        // Never printed.
        #expect(!"\(found!)".contains("not-quoted"))
        #expect(!String(reflecting: found!).contains("not-quoted"))
    }
}
