"""What every command needs and no game knows: the cache folder, the one door to numba, the
table store, the runner of chunked jobs, checkpoints, output files and intervals."""
