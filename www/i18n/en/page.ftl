# attnscope, English: page

page-open-full = Open in attnscope ↗
page-run-progress = Computing { $tokens } tokens: layer { $done } of { $blocks } done
page-language = Language
page-language-failed = The page could not switch to { $language }: { $reason }
