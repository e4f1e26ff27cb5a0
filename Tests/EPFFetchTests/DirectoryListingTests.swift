import Foundation
import Testing

@testable import EPFFetch

@Suite("Directory listings")
struct DirectoryListingTests {
    let base = URL(string: "https://feeds.itunes.apple.com/feeds/epf/v5/current/")!

    /// Apache's FancyIndexing in a <pre>: icons, sort links, the parent
    /// by its absolute path, dates and rounded sizes.
    @Test func apacheFancyIndex() {
        let html = """
            <!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 3.2 Final//EN">
            <html>
             <head>
              <title>Index of /feeds/epf/v5/current</title>
             </head>
             <body>
            <h1>Index of /feeds/epf/v5/current</h1>
            <pre><img src="/icons/blank.gif" alt="Icon "> <a href="?C=N;O=D">Name</a>                    <a href="?C=M;O=A">Last modified</a>      <a href="?C=S;O=A">Size</a>  <a href="?C=D;O=A">Description</a><hr><img src="/icons/back.gif" alt="[PARENTDIR]"> <a href="/feeds/epf/v5/">Parent Directory</a>                             -
            <img src="/icons/folder.gif" alt="[DIR]"> <a href="incremental/">incremental/</a>            2026-11-02 03:12    -
            <img src="/icons/folder.gif" alt="[DIR]"> <a href="itunes20261101/">itunes20261101/</a>         2026-11-01 04:40    -
            <img src="/icons/folder.gif" alt="[DIR]"> <a href="popularity20261101/">popularity20261101/</a>     2026-11-01 04:41    -
            <img src="/icons/folder.gif" alt="[DIR]"> <a href="pricing20261101/">pricing20261101/</a>        2026-11-01 04:41    -
            <img src="/icons/compressed.gif" alt="[   ]"> <a href="itunes20261025.tbz">itunes20261025.tbz</a>      2026-10-25 05:02  1.2G
            <img src="/icons/text.gif" alt="[TXT]"> <a href="itunes20261025.tbz.md5">itunes20261025.tbz.md5</a>  2026-10-25 05:02   57
            <hr></pre>
            <address>Apache Server at feeds.itunes.apple.com Port 443</address>
            </body></html>
            """
        let entries = DirectoryListing.parse(html, url: base)
        #expect(
            entries.map(\.name) == [
                "incremental", "itunes20261101", "popularity20261101", "pricing20261101", "itunes20261025.tbz", "itunes20261025.tbz.md5",
            ])
        #expect(entries.prefix(4).allSatisfy { $0.isFolder })
        #expect(entries.prefix(4).allSatisfy { $0.size == nil })
        #expect(entries[4] == ListingEntry(name: "itunes20261025.tbz", isFolder: false, size: Int64(1.2 * 1024 * 1024 * 1024)))
        #expect(entries[5].size == 57)
    }

    /// Apache's HTMLTable form: sizes in cells, links in cells.
    @Test func apacheTable() {
        let html = """
            <html><head><title>Index of /feeds/epf/v5/current/itunes20261101</title></head><body>
            <h1>Index of /feeds/epf/v5/current/itunes20261101</h1>
              <table>
               <tr><th valign="top"><img src="/icons/blank.gif" alt="[ICO]"></th><th><a href="?C=N;O=D">Name</a></th><th><a href="?C=M;O=A">Last modified</a></th><th><a href="?C=S;O=A">Size</a></th></tr>
               <tr><th colspan="5"><hr></th></tr>
            <tr><td valign="top"><img src="/icons/back.gif" alt="[PARENTDIR]"></td><td><a href="/feeds/epf/v5/current/">Parent Directory</a></td><td>&nbsp;</td><td align="right">  - </td></tr>
            <tr><td valign="top"><img src="/icons/unknown.gif" alt="[   ]"></td><td><a href="application.tbz">application.tbz</a></td><td align="right">2026-11-01 04:40  </td><td align="right">340K</td></tr>
            <tr><td valign="top"><img src="/icons/text.gif" alt="[TXT]"></td><td><a href="application.tbz.md5">application.tbz.md5</a></td><td align="right">2026-11-01 04:40  </td><td align="right"> 57 </td></tr>
            <tr><td valign="top"><img src="/icons/unknown.gif" alt="[   ]"></td><td><a href="application_price.tbz">application_price.tbz</a></td><td align="right">2026-11-01 04:40  </td><td align="right">  1.5M</td></tr>
               <tr><th colspan="5"><hr></th></tr>
            </table></body></html>
            """
        let folder = base.appendingPathComponent("itunes20261101/")
        let entries = DirectoryListing.parse(html, url: folder)
        #expect(
            entries == [
                ListingEntry(name: "application.tbz", isFolder: false, size: 340 * 1024),
                ListingEntry(name: "application.tbz.md5", isFolder: false, size: 57),
                ListingEntry(name: "application_price.tbz", isFolder: false, size: Int64(1.5 * 1024 * 1024)),
            ])
    }

    /// nginx's autoindex: `../`, exact sizes, names cut with `..>`.
    @Test func nginxAutoindex() {
        let html = """
            <html>
            <head><title>Index of /incremental/current/</title></head>
            <body>
            <h1>Index of /incremental/current/</h1><hr><pre><a href="../">../</a>
            <a href="itunes20261102/">itunes20261102/</a>                                    02-Nov-2026 04:40                   -
            <a href="itunes20261103/">itunes20261103/</a>                                    03-Nov-2026 04:40                   -
            <a href="application_popularity_per_genre.tbz">application_popularity_per_ge..&gt;</a> 03-Nov-2026 04:40             1048576
            </pre><hr></body>
            </html>
            """
        let folder = URL(string: "http://127.0.0.1:8080/incremental/current/")!
        #expect(
            DirectoryListing.parse(html, url: folder) == [
                ListingEntry(name: "itunes20261102", isFolder: true),
                ListingEntry(name: "itunes20261103", isFolder: true),
                ListingEntry(name: "application_popularity_per_genre.tbz", isFolder: false, size: 1_048_576),
            ])
    }

    /// Links that lead out of the folder, or deeper, are not entries; an
    /// absolute link into it is; names are percent-decoded; no size column
    /// means no size.
    @Test func linksOffTheTreeAreIgnored() {
        let html = """
            <ul>
            <li><a href="https://feeds.itunes.apple.com/feeds/epf/v5/current/itunes20261101/">absolute, inside</a></li>
            <li><a href="https://other.example/feeds/epf/v5/current/pricing20261101/">another host</a></li>
            <li><a href="http://feeds.itunes.apple.com/feeds/epf/v5/current/popularity20261101/">another scheme</a></li>
            <li><a href="/feeds/epf/v4/current/">another version</a></li>
            <li><a href="../">up</a></li>
            <li><a href="./">here</a></li>
            <li><a href="itunes20261101/application.tbz">deeper</a></li>
            <li><a href="mailto:epf@example.com">mail</a></li>
            <li><a href="#top">top</a></li>
            <li><a href='pricing%2020261101.tbz'>quoted, encoded</a></li>
            <li><A HREF=popularity20261101.tbz>unquoted</A></li>
            <li><a class="x" href="itunes20261101/">again</a></li>
            </ul>
            """
        #expect(
            DirectoryListing.parse(html, url: base) == [
                ListingEntry(name: "itunes20261101", isFolder: true),
                ListingEntry(name: "pricing 20261101.tbz", isFolder: false),
                ListingEntry(name: "popularity20261101.tbz", isFolder: false),
            ])
    }

    @Test func sizeColumn() {
        #expect(DirectoryListing.size(in: " 01-Nov-2026 04:40   4524") == 4524)
        #expect(DirectoryListing.size(in: "2026-11-01 04:40  1.2M") == Int64(1.2 * 1024 * 1024))
        #expect(DirectoryListing.size(in: "2026-11-01 04:40  -") == nil)
        #expect(DirectoryListing.size(in: "") == nil)
    }
}
