//! The languages the page speaks, and how a language tag (the address's `lang`, the
//! browser's list) picks one of them.

use unic_langid::LanguageIdentifier;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Lang {
    #[default]
    En,
    Pt,
    Es,
    Fr,
    De,
    /// Simplified Chinese.
    Zh,
}

impl Lang {
    pub const ALL: [Lang; 6] = [Lang::En, Lang::Pt, Lang::Es, Lang::Fr, Lang::De, Lang::Zh];

    /// The code in the address and in the catalogs' folder names.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Pt => "pt",
            Lang::Es => "es",
            Lang::Fr => "fr",
            Lang::De => "de",
            Lang::Zh => "zh",
        }
    }

    /// The document's `lang` (which also picks fonts and hyphenation).
    pub fn html_tag(self) -> &'static str {
        match self {
            Lang::Zh => "zh-Hans",
            other => other.code(),
        }
    }

    /// The language's name in itself, as the header's picker lists it.
    pub fn name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Pt => "Português",
            Lang::Es => "Español",
            Lang::Fr => "Français",
            Lang::De => "Deutsch",
            Lang::Zh => "简体中文",
        }
    }

    pub fn identifier(self) -> LanguageIdentifier {
        self.html_tag().parse().expect("the page's own language tags parse")
    }

    /// Readouts write `0,25` rather than `0.25`.
    pub fn decimal_comma(self) -> bool {
        matches!(self, Lang::Pt | Lang::Es | Lang::Fr | Lang::De)
    }

    /// The language of a tag such as `de`, `pt-BR` or `zh-Hans-CN`, by its first subtag
    /// (any case); Chinese in traditional characters (`zh-Hant`, `zh-TW`, `zh-HK`, `zh-MO`)
    /// is not Simplified Chinese, and no language the page has.
    pub fn parse(tag: &str) -> Option<Lang> {
        let mut subtags = tag.split(['-', '_']).map(str::to_ascii_lowercase);
        let lang = match subtags.next()?.as_str() {
            "en" => Lang::En,
            "pt" => Lang::Pt,
            "es" => Lang::Es,
            "fr" => Lang::Fr,
            "de" => Lang::De,
            "zh" => Lang::Zh,
            _ => return None,
        };
        if lang == Lang::Zh && subtags.any(|s| matches!(s.as_str(), "hant" | "tw" | "hk" | "mo")) {
            return None;
        }
        Some(lang)
    }

    /// The first of the browser's languages the page has; English when none is (or the
    /// list is empty).
    pub fn first_known<'a>(tags: impl IntoIterator<Item = &'a str>) -> Lang {
        tags.into_iter().find_map(Lang::parse).unwrap_or(Lang::En)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn tags_pick_a_language_by_their_first_subtag() {
        assert_eq!(Lang::parse("pt-BR"), Some(Lang::Pt));
        assert_eq!(Lang::parse("DE"), Some(Lang::De));
        assert_eq!(Lang::parse("zh-Hans-CN"), Some(Lang::Zh));
        assert_eq!(Lang::parse("zh_CN"), Some(Lang::Zh));
        assert_eq!(Lang::parse("zh-TW"), None);
        assert_eq!(Lang::parse("zh-Hant"), None);
        assert_eq!(Lang::parse("xx"), None);
        assert_eq!(Lang::parse(""), None);
        for lang in Lang::ALL {
            assert_eq!(Lang::parse(lang.code()), Some(lang));
            assert_eq!(Lang::parse(lang.html_tag()), Some(lang));
            let _ = lang.identifier();
        }
    }

    #[wasm_bindgen_test]
    fn the_browser_list_gives_its_first_known_language_or_english() {
        assert_eq!(Lang::first_known(["ja", "fr-CA", "de"]), Lang::Fr);
        assert_eq!(Lang::first_known(["zh-TW", "en-GB"]), Lang::En);
        assert_eq!(Lang::first_known([]), Lang::En);
        assert_eq!(Lang::first_known(["ko"]), Lang::En);
    }
}
