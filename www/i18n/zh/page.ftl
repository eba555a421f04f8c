# attnscope, Simplified Chinese: page

page-open-full = 在 attnscope 中打开 ↗
page-run-progress = 正在计算 { $tokens } 个 token：已完成第 { $done } 层，共 { $blocks } 层
page-language = 语言
page-language-failed = 页面无法切换到{ $language }：{ $reason }

## The control bar: the brand's line, settings, the model, the text box, the layer and head

page-tagline = A = softmax(QKᵀ/√d_k + M)，实时计算
page-settings = 设置
page-dark = 深色
page-dark-title = 深色主题，图片也一起变暗
page-present = 演示
page-present-title = 大号文字和图片，适合投影仪
page-columns = 列为查询
page-columns-title = 把每个查询画成一列，和 3Blue1Brown 的视频一样
page-model = 模型
page-model-saved = 已保存
page-model-teaching-option = 教学模型（内置）
page-model-minilm-option = MiniLM · 编码器 · { $size }
page-model-smollm2-option = SmolLM2-135M · 解码器 · { $size }
page-model-trace-option = 追踪文件（已打开）
page-exact = 精确的 f32 权重（{ $size }）
page-exact-title = 关闭：权重舍入为 f16，下载量减半；每个注意力权重与 f32 模型的差都在 2e-3 以内。打开：按原样发布的 f32 文件，即 CLI 输出的数值。
page-download = 下载
page-downloading = 正在下载 { $model }：{ $loaded } / { $total }
page-reading = 正在读取 { $model }：{ $loaded } / { $total }
page-retry = 重新下载
page-use-teaching = 使用教学模型
page-text = 文本
page-text-hosted-trace = 追踪的文本是固定的：它的 token 显示在图的上方
page-text-trace = 追踪文件的文本是固定的：要输入文字，请选择一个模型
page-text-placeholder = 输入一个句子…
page-layer = 层
page-head = 头
page-head-title = 查询头（以及它共享的键/值头，如果多个头共享键和值）

## Models' names (real models keep their published names)

page-model-teaching = 教学模型
page-model-custom = 你的模型
page-model-trace = 追踪文件
page-model-en-pt = 翻译：英语 → 葡萄牙语
page-model-pt-en = 翻译：葡萄牙语 → 英语
page-model-whisper = Whisper tiny.en（语音）
page-load-failed = 无法加载 { $model }：{ $message }
page-other-sentence = 另一个句子

## The tabs of views above the picture

page-views = 视图
page-view-overview = 所有头
page-view-head = 热力图
page-view-grid = 点阵图
page-view-explain = 逐步
page-view-space = Q·K 空间
page-view-catalog = 目录
page-view-worked = 3×4 算例
page-view-lesson = 课程
page-view-beyond = 超越权重
page-view-translate = 翻译
page-view-speech = 语音
page-view-image = 图像
page-view-space-first = Q·K
page-view-space-rest = {" "}空间
page-view-beyond-first = 超越
page-view-beyond-rest = 权重
page-view-worked-first = 3×4
page-view-worked-rest = {" "}算例

## The side panel: status, notes on the model, next tokens, exports

page-rail = 设置、说明和导出
page-computing = 计算中…
page-status-empty = 输入一些文字，查看它的注意力。
page-status = { $tokens } 个 token，在你的浏览器中用时 { $time }
page-status-threads = { $tokens } 个 token，在你的浏览器中用 { $threads } 个线程计算，用时 { $time }
page-status-one-thread = { $tokens } 个 token，在你的浏览器中用单线程计算（{ $why }），用时 { $time }
page-status-memory = worker 内存 { $size }
page-status-memory-both = worker 内存 { $size }（两个 worker 合计）
page-under-tenth-ms = 不到 0.1 ms
page-tokens-label = token：选中一个，在每个视图中跟踪它
page-model-card = 模型
page-note-teaching = 教学模型的五个头是手工设计的，不是学出来的：每个头只做一件能讲清楚的事。
page-note-minilm-exact = MiniLM（all-MiniLM-L6-v2）：一个 BERT 编码器，6 层 × 12 个头；使用按原样发布的 f32 权重。
page-note-minilm = MiniLM（all-MiniLM-L6-v2）：一个 BERT 编码器，6 层 × 12 个头；权重舍入为 f16（下载量减半），每个注意力权重与 f32 模型的差都在 2e-3 以内。
page-note-smollm2 = SmolLM2-135M：一个 Llama 解码器，30 层 × 9 个查询头，共用 3 个键/值头。
page-note-custom = 你的模型，在这个浏览器中从你自己的文件读取：没有上传任何内容。
page-note-trace = 一个追踪文件：在别处计算好的注意力，每次从文件中读取一个头。
page-mask-none = { $name } 双向关注（无掩码）。它的因果网格只是一个假设情形，由同样的 Q 和 K 算出。
page-mask-causal = { $name } 是因果的：每个 token 只能看到自己和前面的 token。它的无掩码网格只是一个假设情形。
page-mask-sliding = { $name } 是因果的，{ $window }
page-mask-window = 并使用滑动窗口：每个 token 只能看到自己和前面 { $before } 个 token。
page-mask-local = { $said }第 { $layer } 层是局部层，{ $window }
page-head-note = 头 { $head }
page-head-note-named = 头 { $head }：“{ $name }”
page-append-token = 追加这个 token
page-next-tokens = 最可能的下一个 token
page-next-click = 点击一个即可追加。
page-export-heading = 导出这个头
page-export-busy = 正在等待文本的注意力计算完成
page-export-title = 第 { $layer } 层 · 头 { $head } · A = softmax(QKᵀ/√d_k + M) · 掩码：{ $mask }
page-mask-name-none = 无
page-mask-name-causal = 因果
page-mask-name-sliding = 滑动窗口
page-table-too-long = 权重表只对不超过 { $max } 个 token 的文本显示；更长的文本请导出 CSV。
page-table-caption = 所选头的注意力权重：行是查询，列是键
page-table-corner = 查询 \ 键

## Offline use

page-offline-saving = 正在保存以便离线使用…
page-offline-ready = ✓ 可离线使用
page-offline-ready-title = 页面的文件已保存在这个浏览器中：无需网络即可打开和计算

## Zooming into a picture

page-zoom = 缩放
page-zoom-title = Ctrl + 滚轮、双指捏合，或在选中的图上按 + 和 − 缩放；拖动或滚轮平移；按 0 适配
page-zoom-out = 缩小
page-zoom-in = 放大
page-zoom-level = 缩放 { $level }
page-zoom-fit = 适配
page-zoom-fit-title = 适配：显示整张图

## The computation's worker (errors; $why and $error are in English, from the browser or the core)

page-worker-restarted = 计算 worker 意外停止（{ $why }）；已重新启动。
page-worker-gave-up = 计算 worker 意外停止（{ $why }）；失败次数太多，无法重新启动；请刷新页面。
page-worker-restarted-model = 计算 worker 意外停止（{ $why }）；已重新启动：请重新选择模型以再次加载
page-worker-gave-up-model = 计算 worker 意外停止（{ $why }）；失败次数太多，无法重新启动；请刷新页面：然后重新选择模型以再次加载
page-needs-worker = { $model } 需要后台 worker，但它无法在这个浏览器中启动
page-worker-not-started = 计算 worker 没有启动：请刷新页面
page-trace-worker-not-started = 读取追踪文件的后台 worker 没有启动：请刷新页面
page-hosted-worker-not-started = 读取追踪的后台 worker 没有启动
page-worker-unreadable = 无法读取 worker 的回复：{ $error }
page-worker-no-reason = 未说明原因；内存不足？

## A page inside a notebook, reading its host's trace

page-host-no-reason = 未说明原因
page-host-not-bytes = 宿主发送的不是字节数据
page-host-wrong-length = 宿主发送了 { $sent } 字节，而请求的是 { $asked } 字节（文件是否已更改？）

# The axes of the exported heatmap (PNG, SVG).
page-axis-keys = 键 →
page-axis-queries = 查询 ↓

# The teaching model as a run names it (the lesson, the status, exports).
page-model-teaching-run = 教学模型（手工设计的头）

# The teaching model's five heads: "name: what the head does" (the part before the first colon is the name).
page-teaching-describes = 修饰：名词关注形容词，尤其是紧挨在它前面的（生物 → 毛茸茸、蓝色）。
page-teaching-previous-word = 前一个词：每个词关注它前面的那个词。
page-teaching-self = 自身：每个词关注它自己（以及它的重复）。
page-teaching-who-did-what = 谁做了什么：动词关注附近的名词和代词（漫步 → 生物、森林）。
page-teaching-introduces = 引出：限定词向后关注它所引出的名词（一只 → 生物）。
