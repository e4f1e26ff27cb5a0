import EPFCatalogCore

/// One App Store storefront, from the catalog's `storefront` table.
public struct Storefront: Sendable, Equatable {
    /// `storefront_id` (143441 for the United States).
    public var id: Int64
    /// `country_code`: ISO 3166 alpha-3 (`USA`), as EPF writes it.
    public var countryCode: String?
    /// The storefront's name.
    public var name: String?

    /// A storefront.
    @usableFromInline
    package init(id: Int64, countryCode: String?, name: String?) {
        self.id = id
        self.countryCode = countryCode
        self.name = name
    }

    /// The United States storefront's ID, used when no country is given.
    @usableFromInline
    package static let unitedStatesID: Int64 = 143441
}

/// ISO 3166-1 country codes and the App Store's storefront IDs: EPF's
/// `storefront` table holds alpha-3 codes, users type alpha-2 (`us`, `jp`)
/// as in Apple's `country=` parameter, and `epf import --storefront` names
/// storefronts before any `storefront` table is loaded.
package enum CountryCode {
    /// The alpha-3 code of an alpha-2 code (`US` -> `USA`), upper case.
    static func alpha3(forAlpha2 code: String) -> String? {
        byAlpha2[code.uppercased()]?.alpha3
    }

    /// The alpha-2 code of an alpha-3 code (`JPN` -> `JP`), upper case.
    static func alpha2(forAlpha3 code: String) -> String? {
        alpha2ByAlpha3[code.uppercased()]
    }

    /// The storefront ID of an alpha-2 or alpha-3 code (`JP`, `JPN` ->
    /// 143462), any case.
    package static func storefrontID(forCode code: String) -> Int64? {
        let upper = code.uppercased()
        return byAlpha2[alpha2ByAlpha3[upper] ?? upper]?.storefront
    }

    /// The alpha-2 code of a storefront ID (143462 -> `JP`).
    package static func alpha2(forStorefront id: Int64) -> String? {
        alpha2ByStorefront[id]
    }

    /// The alpha-3 code of a storefront ID (143462 -> `JPN`).
    package static func alpha3(forStorefront id: Int64) -> String? {
        alpha2ByStorefront[id].flatMap { byAlpha2[$0]?.alpha3 }
    }

    /// Every storefront ID of the table, in the order of its alpha-2 codes.
    package static let storefrontIDs: [Int64] = byAlpha2.keys.sorted().compactMap { byAlpha2[$0]?.storefront }

    private static let alpha2ByAlpha3: [String: String] = Dictionary(
        byAlpha2.map { ($0.value.alpha3, $0.key) }, uniquingKeysWith: { first, _ in first })

    private static let alpha2ByStorefront: [Int64: String] = Dictionary(
        byAlpha2.map { ($0.value.storefront, $0.key) }, uniquingKeysWith: { first, _ in first })

    /// The countries of the App Store: alpha-2, alpha-3, storefront ID.
    /// Apple publishes no such list: the IDs are those public clients use
    /// (the X-Apple-Store-Front codes of ipatool's `StoreClient.swift`,
    /// majd/ipatool, for the 133 it names: Turks and Caicos 143552,
    /// Trinidad and Tobago 143551, St. Vincent 143550, Liechtenstein
    /// 143522). Queries find a storefront by its alpha-3 code in the
    /// catalog's own `storefront` table; the IDs here serve
    /// `epf import --storefront` (before any `storefront` table is loaded),
    /// the generator and messages.
    private static let byAlpha2: [String: (alpha3: String, storefront: Int64)] = {
        let triples = """
            AE ARE 143481 AF AFG 143610 AG ATG 143540 AI AIA 143538 AL ALB 143575 AM ARM 143524 AO AGO 143564 \
            AR ARG 143505 AT AUT 143445 AU AUS 143460 AZ AZE 143568 BA BIH 143612 BB BRB 143541 BD BGD 143490 \
            BE BEL 143446 BF BFA 143578 BG BGR 143526 BH BHR 143559 BJ BEN 143576 BM BMU 143542 BN BRN 143560 \
            BO BOL 143556 BR BRA 143503 BS BHS 143539 BT BTN 143577 BW BWA 143525 BY BLR 143565 BZ BLZ 143555 \
            CA CAN 143455 CD COD 143613 CG COG 143582 CH CHE 143459 CI CIV 143527 CL CHL 143483 CM CMR 143574 \
            CN CHN 143465 CO COL 143501 CR CRI 143495 CV CPV 143580 CY CYP 143557 CZ CZE 143489 DE DEU 143443 \
            DK DNK 143458 DM DMA 143545 DO DOM 143508 DZ DZA 143563 EC ECU 143509 EE EST 143518 EG EGY 143516 \
            ES ESP 143454 FI FIN 143447 FJ FJI 143583 FM FSM 143591 FR FRA 143442 GA GAB 143614 GB GBR 143444 \
            GD GRD 143546 GE GEO 143615 GH GHA 143573 GM GMB 143584 GR GRC 143448 GT GTM 143504 GW GNB 143585 \
            GY GUY 143553 HK HKG 143463 HN HND 143510 HR HRV 143494 HU HUN 143482 ID IDN 143476 IE IRL 143449 \
            IL ISR 143491 IN IND 143467 IQ IRQ 143617 IS ISL 143558 IT ITA 143450 JM JAM 143511 JO JOR 143528 \
            JP JPN 143462 KE KEN 143529 KG KGZ 143586 KH KHM 143579 KN KNA 143548 KR KOR 143466 KW KWT 143493 \
            KY CYM 143544 KZ KAZ 143517 LA LAO 143587 LB LBN 143497 LC LCA 143549 LI LIE 143522 LK LKA 143486 LR LBR 143588 \
            LT LTU 143520 LU LUX 143451 LV LVA 143519 LY LBY 143567 MA MAR 143620 MD MDA 143523 ME MNE 143619 \
            MG MDG 143531 MK MKD 143530 ML MLI 143532 MM MMR 143570 MN MNG 143592 MO MAC 143515 MR MRT 143590 \
            MS MSR 143547 MT MLT 143521 MU MUS 143533 MV MDV 143488 MW MWI 143589 MX MEX 143468 MY MYS 143473 \
            MZ MOZ 143593 NA NAM 143594 NE NER 143534 NG NGA 143561 NI NIC 143512 NL NLD 143452 NO NOR 143457 \
            NP NPL 143484 NR NRU 143606 NZ NZL 143461 OM OMN 143562 PA PAN 143485 PE PER 143507 PG PNG 143597 \
            PH PHL 143474 PK PAK 143477 PL POL 143478 PT PRT 143453 PW PLW 143595 PY PRY 143513 QA QAT 143498 \
            RO ROU 143487 RS SRB 143500 RU RUS 143469 RW RWA 143621 SA SAU 143479 SB SLB 143601 SC SYC 143599 \
            SE SWE 143456 SG SGP 143464 SI SVN 143499 SK SVK 143496 SL SLE 143600 SN SEN 143535 SR SUR 143554 \
            ST STP 143598 SV SLV 143506 SZ SWZ 143602 TC TCA 143552 TD TCD 143581 TH THA 143475 TJ TJK 143603 \
            TM TKM 143604 TN TUN 143536 TO TON 143608 TR TUR 143480 TT TTO 143551 TW TWN 143470 TZ TZA 143572 \
            UA UKR 143492 UG UGA 143537 US USA 143441 UY URY 143514 UZ UZB 143566 VC VCT 143550 VE VEN 143502 \
            VG VGB 143543 VN VNM 143471 VU VUT 143609 XK XKS 143624 YE YEM 143571 ZA ZAF 143472 ZM ZMB 143622 \
            ZW ZWE 143605
            """.split(separator: " ").map(String.init)
        var table: [String: (alpha3: String, storefront: Int64)] = [:]
        for index in stride(from: 0, to: triples.count - 2, by: 3) {
            table[triples[index]] = (triples[index + 1], Int64(triples[index + 2]) ?? 0)
        }
        return table
    }()
}
