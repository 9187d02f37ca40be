//! The app's pages and their fragment URLs.

/// A page of the app.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Page {
    /// What citegate does and the three ways in.
    Start,
    /// Build a verified citation pool.
    Pool,
    /// Gate a draft on its citation coverage.
    Coverage,
    /// Cross-check the pool against Crossref and OpenAlex.
    CrossCheck,
    /// Check any `.bib` in four layers.
    Bibtex,
    /// Search the three indexes at once.
    Search,
    /// The `refs.jsonl` reference library.
    Library,
    /// Draft the Introduction and Related Work with a language model.
    Write,
    /// Keys, contact email, base URLs, cache.
    Settings,
    /// Score two titles the way the verifier does.
    TitleMatch,
}

impl Page {
    /// Every page, in navigation order.
    pub const ALL: [Page; 10] = [
        Page::Start,
        Page::Pool,
        Page::Coverage,
        Page::CrossCheck,
        Page::Bibtex,
        Page::Search,
        Page::Library,
        Page::Write,
        Page::TitleMatch,
        Page::Settings,
    ];

    /// The fragment path of the page, without `#`.
    pub fn path(self) -> &'static str {
        match self {
            Page::Start => "/",
            Page::Pool => "/pool",
            Page::Coverage => "/coverage",
            Page::CrossCheck => "/crosscheck",
            Page::Bibtex => "/bibtex",
            Page::Search => "/search",
            Page::Library => "/library",
            Page::Settings => "/settings",
            Page::Write => "/write",
            Page::TitleMatch => "/match",
        }
    }

    /// The page's name in the navigation.
    pub fn label(self) -> &'static str {
        match self {
            Page::Start => "Start",
            Page::Pool => "Pool",
            Page::Coverage => "Coverage",
            Page::CrossCheck => "Cross-check",
            Page::Bibtex => "BibTeX check",
            Page::Search => "Search",
            Page::Library => "Library",
            Page::Settings => "Settings",
            Page::Write => "Write",
            Page::TitleMatch => "Title match",
        }
    }

    /// Whether the page sits in the Tools menu rather than the main
    /// navigation (helpers a researcher rarely needs on the way).
    pub fn is_tool(self) -> bool {
        matches!(self, Page::TitleMatch)
    }

    /// Whether the page needs the browser services (storage, throttle,
    /// cache) and so waits for them to open; the others are shown at once,
    /// which is the app's first render on a cold load.
    pub fn needs_services(self) -> bool {
        !matches!(self, Page::Start | Page::TitleMatch)
    }

    /// Whether the start module (`split`), which index.html loads first,
    /// draws the page itself; the others open the whole app. Such a page
    /// must not need the browser services, which only the whole app has.
    pub fn in_start_module(self) -> bool {
        matches!(self, Page::Start | Page::TitleMatch)
    }

    /// The document title while the page is shown.
    pub fn document_title(self) -> String {
        match self {
            Page::Start => "citegate — check your citations".to_string(),
            p => format!("{} — citegate", p.label()),
        }
    }

    /// The page a fragment (`#/match`, `/match`, `match`) names; an empty or
    /// unknown fragment gives the start page.
    pub fn from_fragment(fragment: &str) -> Page {
        let p = fragment.trim_start_matches('#');
        let p = p.split(['?', '&']).next().unwrap_or("");
        let p = if p.starts_with('/') {
            p.to_string()
        } else {
            format!("/{p}")
        };
        Page::ALL
            .into_iter()
            .find(|page| page.path() == p)
            .unwrap_or(Page::Start)
    }
}

#[cfg(test)]
mod tests {
    use super::Page;

    #[test]
    fn fragments_name_pages() {
        for page in Page::ALL {
            assert_eq!(Page::from_fragment(&format!("#{}", page.path())), page);
        }
        assert_eq!(Page::from_fragment(""), Page::Start);
        assert_eq!(Page::from_fragment("#"), Page::Start);
        assert_eq!(Page::from_fragment("#/"), Page::Start);
        assert_eq!(Page::from_fragment("#/nowhere"), Page::Start);
        assert_eq!(Page::from_fragment("#/match"), Page::TitleMatch);
        assert_eq!(Page::from_fragment("pool"), Page::Pool);
    }

    #[test]
    fn titles_name_the_page() {
        assert_eq!(Page::Coverage.document_title(), "Coverage — citegate");
        assert_eq!(
            Page::Start.document_title(),
            "citegate — check your citations"
        );
        let tools: Vec<Page> = Page::ALL.into_iter().filter(|p| p.is_tool()).collect();
        assert_eq!(tools, vec![Page::TitleMatch]);
    }

    #[test]
    fn only_pages_without_storage_skip_the_wait() {
        let at_once: Vec<Page> = Page::ALL
            .into_iter()
            .filter(|p| !p.needs_services())
            .collect();
        assert_eq!(at_once, vec![Page::Start, Page::TitleMatch]);
    }

    #[test]
    fn the_start_module_draws_only_pages_without_services() {
        let drawn: Vec<Page> = Page::ALL
            .into_iter()
            .filter(|p| p.in_start_module())
            .collect();
        assert_eq!(drawn, vec![Page::Start, Page::TitleMatch]);
        assert!(drawn.iter().all(|p| !p.needs_services()));
    }

    /// index.html's inline script preloads the whole app for a link straight
    /// to one of its pages; its list must be exactly those pages.
    #[test]
    fn the_page_preloads_the_whole_app_for_exactly_its_pages() {
        let html = include_str!("../../index.html");
        let list = html
            .split_once("const whole = [")
            .and_then(|(_, rest)| rest.split_once(']'))
            .map(|(list, _)| list)
            .expect("index.html's preload script lists the whole app's pages");
        let mut listed: Vec<String> = list
            .split(',')
            .map(|p| p.trim().trim_matches('"').to_string())
            .collect();
        let mut whole: Vec<String> = Page::ALL
            .into_iter()
            .filter(|p| !p.in_start_module())
            .map(|p| p.path().trim_start_matches('/').to_string())
            .collect();
        listed.sort();
        whole.sort();
        assert_eq!(listed, whole);
    }
}
