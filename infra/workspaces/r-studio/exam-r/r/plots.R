# Plots of an interactive R session (the exam-r extension's R console, or `R` in any terminal) as PNG files in
# $EXAM_R_PLOTS (the workspace's plots/ folder), which the extension opens in the editor beside the script: a
# window-less device keeps the plot, and each finished plot is written out when the next one starts, after every
# console command and when the device closes. Loaded from Rprofile.site.
local({
  dir <- Sys.getenv("EXAM_R_PLOTS")
  last <- NULL
  busy <- FALSE
  save <- function() {
    if (busy || grDevices::dev.cur() == 1L) return(invisible())
    plot <- tryCatch(grDevices::recordPlot(), error = function(e) NULL)
    if (is.null(plot) || is.null(plot[[1]]) || identical(plot[[1]], last)) return(invisible())
    busy <<- TRUE
    on.exit(busy <<- FALSE)
    last <<- plot[[1]]
    dir.create(dir, showWarnings = FALSE, recursive = TRUE)
    n <- length(list.files(dir, pattern = "^plot-[0-9]+\\.png$")) + 1L
    while (file.exists(file <- file.path(dir, sprintf("plot-%03d.png", n)))) n <- n + 1L
    current <- grDevices::dev.cur()
    grDevices::png(file, width = 800, height = 600)
    tryCatch(grDevices::replayPlot(plot), error = function(e) NULL)
    grDevices::dev.off()
    grDevices::dev.set(current)
    invisible()
  }
  options(device = function(...) {
    grDevices::pdf(NULL, width = 8, height = 6)
    grDevices::dev.control("enable")
  })
  setHook("before.plot.new", function() save())
  setHook("before.grid.newpage", function() save())
  addTaskCallback(function(...) {
    save()
    TRUE
  }, name = "exam-plots")
})
