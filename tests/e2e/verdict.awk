# The verdict tt-tune says on the test part, worked out from the
# objective_test column of its TSV (an objective without conditions):
# the best baseline (strict, no_wait, grid_best where it is another
# configuration) that beats the choice, with how much and what to do;
# else by how much the choice beats each, ties apart.
# awk -F'\t' -f verdict.awk TUNE.tsv
NR == 1 { next }
{
    o[$1] = $3
    p = ""
    for (k = 7; k <= 37; k++)
        p = p "\t" $k
    par[$1] = p
}
END {
    nm["strict"] = "strict consolidation"; ad["strict"] = "keep strict consolidation"
    nm["no_wait"] = "no-wait"; ad["no_wait"] = "prefer no-wait"
    nm["grid_best"] = "the grid baseline's choice"; ad["grid_best"] = "prefer the grid baseline's choice"
    split("strict no_wait grid_best", b, " ")
    r = o["recommended"] + 0
    n = 0
    won = ""
    for (i = 1; i <= 3; i++) {
        x = b[i]
        if (x == "grid_best" && par[x] == par["recommended"])
            continue
        use[++n] = x
        if (o[x] + 0 < r && (won == "" || o[x] + 0 < o[won] + 0))
            won = x
    }
    s = "on the test part the recommended configuration "
    if (won != "") {
        printf "%sis %.2f %% worse than %s: %s\n", s, 100 * (r - o[won]) / o[won], nm[won], ad[won]
        exit
    }
    nb = nt = 0
    for (j = 1; j <= n; j++)
        if (r < o[use[j]] + 0)
            beat[++nb] = use[j]
        else
            tie[++nt] = use[j]
    if (nb)
        s = s "beats "
    for (j = 1; j <= nb; j++)
        s = s (j == 1 ? "" : j == nb ? " and " : ", ") sprintf("%s by %.2f %%", nm[beat[j]],
            100 * (o[beat[j]] - r) / o[beat[j]])
    if (nt)
        s = s (nb ? ", and ties with " : "ties with ")
    for (j = 1; j <= nt; j++)
        s = s (j == 1 ? "" : j == nt ? " and " : ", ") nm[tie[j]]
    print s
}
