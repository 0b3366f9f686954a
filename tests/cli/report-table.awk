# Writes a synthetic timing table for the report tests: Hockney-like times with a few
# percent of fixed pseudo-random noise (a protocol switch at 64 KiB for point-to-point),
# collectives at np 2, 4, 8, a barrier, and derived-datatype ping-pongs with their
# contiguous and pack baselines as measure writes them: a pack row per layout packed
# (column ddt_layout), and a struct whose block count grows with the size.
function row(pat, np, m, dt, blocks, t, nmsg, layout,   bw) {
    # Deterministic noise of a few percent, as a real run has.
    t = t * (1 + 0.03 * sin(++nrow * 12.9898))
    bw = nmsg > 0 ? sprintf("%.6g", nmsg * m / (1.048576 * t)) : ""
    printf "%s,%d,%d,%s,%s,100,5,%.6g,%.6g,%.6g,%.6g,%.6g,%s,%s\n", pat, np, m, dt,
        blocks ? blocks : "", t * 0.97, t, t * 1.05, t, t * 0.03, bw, layout
}
BEGIN {
    print "# schema: 1"
    print "# commfit: 0.1.0"
    print "# date: 2026-11-22T04:21:00Z"
    print "# hosts: node1"
    # All 8 ranks on the one node, as measure records them: past np 8 nothing says where
    # ranks would run, and predict's intervals have no upper bound there.
    print "# ranks_per_node: 8"
    print "# mpi_library: MPICH Version: 4.0 <test> & \"co\""
    print "pattern,np,bytes,datatype,blocks,reps,samples,t_min_us,t_avg_us,t_max_us,t_med_us,t_ci95_us,bw_MiBps,ddt_layout"
    for (m = 0; m <= 4194304; m = m ? m * 2 : 1) {
        t = (m <= 65536) ? 0.4 + m / 8000 : 6 + m / 11000
        row("pingpong", 2, m, "byte", 0, t, 1)
        row("sendrecv", 2, m, "byte", 0, t * 1.1, 2)
    }
    for (np = 2; np <= 8; np *= 2)
        for (m = 0; m <= 1048576; m = m ? m * 4 : 1) {
            row("alltoall", np, m, "byte", 0, (np - 1) * (0.8 + m / 5000), 0)
            if (m >= 4)
                row("allreduce", np, m, "float", 0, log(np) / log(2) * (1 + m / 3000), 0)
        }
    for (np = 2; np <= 8; np *= 2)
        row("barrier", np, 0, "byte", 0, log(np) / log(2) * 0.7, 0)
    for (m = 1024; m <= 1048576; m *= 4) {
        row("pingpong", 2, m, "contiguous", 1, 1 + m / 8000, 1, "contiguous")
        for (b = 1; b <= 256; b *= 16) {
            t = 1 + m / 8000 + b * 0.05
            row("pingpong", 2, m, "vector", b, t, 1, "vector")
            row("pingpong", 2, m, "pack", b, t + m / 9000, 1, "vector")
            row("pingpong", 2, m, "indexed", b, t * 1.1, 1, "indexed")
            row("pingpong", 2, m, "pack", b, t * 1.1 + m / 7000, 1, "indexed")
        }
        # One block per 64 bytes.
        t = (1 + m / 8000 + m / 64 * 0.002) * 1.3
        row("pingpong", 2, m, "struct", m / 64, t, 1, "struct")
        row("pingpong", 2, m, "pack", m / 64, t + m / 6000, 1, "struct")
    }
}
