# An independent host graph, for checking `baselinks graph`: page_url<TAB>url lines in (the TSV
# of `baselinks extract --fields page_url,url`), "source<TAB>target" host names out, reversed,
# www. kept as Common Crawl keeps it (since 2026); hosts that are not LDH labels, IP addresses
# and single labels left out. Pipe it to `LC_ALL=C sort -u`. POSIX awk (mawk, gawk, busybox).
function host(url,    h, n, part, name, first, i) {
    if (!match(url, /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\/?#]*/)) return ""
    h = substr(url, RSTART, RLENGTH)
    sub(/^[^:]*:\/\//, "", h); sub(/^.*@/, "", h); sub(/:.*$/, "", h)
    h = tolower(h); sub(/\.$/, "", h)
    if (h !~ /^[a-z0-9]([a-z0-9_-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9_-]*[a-z0-9])?)+$/) return ""
    if (h ~ /^[0-9.]+$/) return ""
    n = split(h, part, ".")
    name = part[n]
    for (i = n - 1; i >= 1; i--) name = name "." part[i]
    return name
}
NR > 1 { source = host($1); target = host($2); if (source != "" && target != "" && source != target) print source "\t" target }
