/// One App Store storefront, from the catalog's `storefront` table.
public struct Storefront: Sendable, Equatable {
    /// `storefront_id` (143441 for the United States).
    public var id: Int64
    /// `country_code`: ISO 3166 alpha-3 (`USA`), as EPF writes it.
    public var countryCode: String?
    /// The storefront's name.
    public var name: String?

    /// A storefront.
    package init(id: Int64, countryCode: String?, name: String?) {
        self.id = id
        self.countryCode = countryCode
        self.name = name
    }

    /// The United States storefront's ID, used when no country is given.
    package static let unitedStatesID: Int64 = 143441
}

/// ISO 3166-1 country codes: EPF's `storefront` table holds alpha-3 codes,
/// users type alpha-2 (`us`, `jp`) as in Apple's `country=` parameter.
enum CountryCode {
    /// The alpha-3 code of an alpha-2 code (`US` -> `USA`), upper case.
    static func alpha3(forAlpha2 code: String) -> String? {
        alpha3ByAlpha2[code.uppercased()]
    }

    /// The alpha-2 code of an alpha-3 code (`JPN` -> `JP`), upper case.
    static func alpha2(forAlpha3 code: String) -> String? {
        alpha2ByAlpha3[code.uppercased()]
    }

    private static let alpha2ByAlpha3: [String: String] = Dictionary(
        alpha3ByAlpha2.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })

    /// The countries of the App Store (and a few more).
    private static let alpha3ByAlpha2: [String: String] = {
        let pairs = """
            AE ARE AF AFG AG ATG AI AIA AL ALB AM ARM AO AGO AR ARG AT AUT AU AUS AZ AZE BA BIH BB BRB \
            BD BGD BE BEL BF BFA BG BGR BH BHR BJ BEN BM BMU BN BRN BO BOL BR BRA BS BHS BT BTN BW BWA \
            BY BLR BZ BLZ CA CAN CD COD CG COG CH CHE CI CIV CL CHL CM CMR CN CHN CO COL CR CRI CV CPV \
            CY CYP CZ CZE DE DEU DK DNK DM DMA DO DOM DZ DZA EC ECU EE EST EG EGY ES ESP FI FIN FJ FJI \
            FM FSM FR FRA GA GAB GB GBR GD GRD GE GEO GH GHA GM GMB GR GRC GT GTM GW GNB GY GUY HK HKG \
            HN HND HR HRV HU HUN ID IDN IE IRL IL ISR IN IND IQ IRQ IS ISL IT ITA JM JAM JO JOR JP JPN \
            KE KEN KG KGZ KH KHM KN KNA KR KOR KW KWT KY CYM KZ KAZ LA LAO LB LBN LC LCA LK LKA LR LBR \
            LT LTU LU LUX LV LVA LY LBY MA MAR MD MDA ME MNE MG MDG MK MKD ML MLI MM MMR MN MNG MO MAC \
            MR MRT MS MSR MT MLT MU MUS MV MDV MW MWI MX MEX MY MYS MZ MOZ NA NAM NE NER NG NGA NI NIC \
            NL NLD NO NOR NP NPL NR NRU NZ NZL OM OMN PA PAN PE PER PG PNG PH PHL PK PAK PL POL PT PRT \
            PW PLW PY PRY QA QAT RO ROU RS SRB RU RUS RW RWA SA SAU SB SLB SC SYC SE SWE SG SGP SI SVN \
            SK SVK SL SLE SN SEN SR SUR ST STP SV SLV SZ SWZ TC TCA TD TCD TH THA TJ TJK TM TKM TN TUN \
            TO TON TR TUR TT TTO TW TWN TZ TZA UA UKR UG UGA US USA UY URY UZ UZB VC VCT VE VEN VG VGB \
            VN VNM VU VUT XK XKS YE YEM ZA ZAF ZM ZMB ZW ZWE
            """.split(separator: " ").map(String.init)
        var table: [String: String] = [:]
        for index in stride(from: 0, to: pairs.count - 1, by: 2) { table[pairs[index]] = pairs[index + 1] }
        return table
    }()
}
