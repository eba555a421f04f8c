# attnscope, Simplified Chinese: views

## 单元格读数

common-readout-empty = 指向一个单元格或点按它，即可读出其权重和原始分数。
common-readout-weight-only = “{ $query }”→“{ $key }”：权重 { $weight }
common-readout-visible = “{ $query }”→“{ $key }”：权重 { $weight } · 原始分数 q·k { $score } · 缩放后 { $scaled }
common-readout-visible-what-if = “{ $query }”→“{ $key }”（假设掩码）：权重 { $weight } · 原始分数 q·k { $score } · 缩放后 { $scaled }
common-readout-hidden = “{ $query }”→“{ $key }”：被{ $mask ->
        [causal] 因果掩码
       *[other] 滑动窗口掩码
    }遮蔽（分数 −∞，权重 0）· 原始分数 q·k { $score }
common-readout-hidden-what-if = “{ $query }”→“{ $key }”（假设掩码）：被{ $mask ->
        [causal] 因果掩码
       *[other] 滑动窗口掩码
    }遮蔽（分数 −∞，权重 0）· 原始分数 q·k { $score }
common-mask-none = 无
common-mask-causal = 因果
common-mask-window = 滑动窗口

## 四个步骤

stage-play = ▶ 播放
stage-stop = ■ 停止
stage-play-label = 播放四个步骤
stage-stop-label = 停止
stage-play-title = 播放 QKᵀ → ×1/√d_k → +M → softmax
stage-picker-label = 计算步骤
stage-title-scores = 第 1 步：原始分数 S = QKᵀ，每个查询与每个键各做一次点积
stage-title-scaled = 第 2 步：分数按 1/√d_k 缩放
stage-title-masked = 第 3 步：加上掩码 M：键被遮蔽处为 −∞
stage-title-weights = 第 4 步：对每一行做 softmax，得到注意力权重 A

## 热力图

head-heatmap-label = 所选头的注意力，查询 × 键；权重表列出相同的数字。方向键移动所描述的单元格，回车选择其查询；加号和减号缩放长文本
head-caption-weights-rows = 第 i 行：查询 token i 如何把注意力分配到各个键（列）上。越亮表示越多；每行之和为 1。
head-caption-weights-rows-masked = 第 i 行：查询 token i 如何把注意力分配到各个键（列）上。越亮表示越多；每行之和为 1。灰色：被掩码遮蔽的键（权重为 0）。
head-caption-weights-columns = 第 j 列：查询 token j 如何把注意力分配到各个键（行）上。越亮表示越多；每列之和为 1。
head-caption-weights-columns-masked = 第 j 列：查询 token j 如何把注意力分配到各个键（行）上。越亮表示越多；每列之和为 1。灰色：被掩码遮蔽的键（权重为 0）。
head-caption-masked = 经过掩码后的分数：灰色单元格为 −∞，即查询看不到的键。红色为正，蓝色为负。
head-caption-scores-rows = 第 i 行：查询 token i 与每个键的分数 q·k。红色为正，蓝色为负。
head-caption-scores-columns = 第 j 列：查询 token j 与每个键的分数 q·k。红色为正，蓝色为负。
head-compare-summary = 与另一个句子比较（同一个头）
head-compare-text-label = 另一个句子
head-compare-placeholder = 例如：同样的词换一个顺序
head-compare-label = 同一个头在另一个句子上的注意力权重
head-compare-caption = { $what }（{ $tokens } 个 token），层 { $layer }，头 { $head }
head-compare-close = 关闭修补后的运行

## 点阵图

grid-caption-unmasked = 无掩码：每个词都能看到所有词。{ $model } 用的就是这种。
grid-caption-unmasked-what-if = 无掩码（假设）：{ $model } 是因果的；此图用相同的 Q 和 K 计算，但不加掩码。
grid-caption-causal = 因果：一个词只能看到自己和前面的词。{ $model } 用的就是这种。
grid-caption-causal-what-if = 因果（假设）：{ $model } 双向可见；此图对相同的 Q 和 K 施加因果掩码。
grid-caption-window = 滑动窗口：一个词只能看到自己和前面的 { $before } 个词。
grid-hint-norms = 模型自身掩码的那张图：圆面积 ∝ ‖a·f(x)‖，每行相对于该行的最大值。
grid-hint-weights = 圆面积 ∝ 注意力权重（0 到 1）。
grid-hint-masked = 圆面积 ∝ |分数|（相对于最大的原始分数）；红色为正，蓝色为负；× 表示 −∞，即被遮蔽的键。
grid-hint-scores = 圆面积 ∝ |分数|（相对于最大的原始分数）：缩放会让它们全部变小。红色为正，蓝色为负。
grid-norms-caption = 按值加权的 ‖a·f(x)‖ 取代最后一步（权重），且只用于采用模型自身掩码的那张图：分数出现在任何值向量之前，而假设掩码没有自己的范数。
grid-small-caption = 在这个长度下，一个点只有一两个像素：每个单元格改为按其点的大小着色。放大（+、Ctrl + 滚轮或双指捏合）即可看到点。

## 逐步

explain-vector-preview = { $vector }（共 { $count } 个数）
explain-vector-show-all = { $label }：显示全部 { $count } 个数
explain-scale-unscaled = 去掉 1/√d_k：原始分数直接进入 softmax（模型使用 1/√{ $d_k } = { $model }）
explain-scale-unscaled-temperature = 去掉 1/√d_k，再 × { $factor } 作为温度（模型使用 1/√{ $d_k } = { $model }）
explain-scale-temperature = = { $factor } × 1/√{ $d_k }：温度课程已开启（模型自身的因子是 1/√{ $d_k } = { $model }）
explain-scale-model = = 1/√{ $d_k }，即模型自身的缩放（d_k = { $d_k }）
explain-scale-own = 模型自身的因子（1/√{ $d_k } 应为 { $model }）
explain-projection-minilm = （+ 偏置 b_Q；x 是经过上一层 LayerNorm 之后的 E）
explain-projection-smollm2 = （x 是经过 RMSNorm 之后的 E；随后 q 和 k 按其位置旋转，即 RoPE）
explain-projection-custom = （x 是经过该层归一化之后的 E，按你的模型的定义）
explain-projection-trace = （q 和 k 取自 trace 文件；文件中没有 x、v 和 ΔE）
explain-projection-translate = （+ 偏置 b_Q；翻译模型的编码器，x 是经过上一层 LayerNorm 之后的结果）
explain-projection-whisper = （+ 偏置 b_Q；x 是经过该层 LayerNorm 之后的 E）
explain-query-token = 查询 token
explain-choose-query = 选择查询 token
explain-key-of = { $token } 的 k
explain-value-of = { $token } 的 v
explain-weighted-value-of = { $token } 的加权值
explain-head-note = 层 { $layer }，头 { $head }（键和值来自键/值头 { $kv_head }）· d_k = { $d_k } · 缩放 = { $scale } · 掩码：{ $mask }
explain-step-x = “{ $token }”进入该层时的向量
explain-formula-x = x = E[{ $index }]   （{ $count } 个数）
explain-step-q = 它的查询
explain-formula-q = q = x · W_Q   （{ $from } → { $to } 个数）{ $note }
explain-step-scores = 与每个键比较、缩放、加掩码、softmax，再对值加权
explain-formula-mask = s″_j = s′_j + M_ij   （键可见处 M 为 0，被{ $mask ->
        [none] 掩码（无）
        [causal] 因果掩码
       *[other] 滑动窗口掩码
    }遮蔽处为 −∞）
explain-formula-v = v_j = x_j · W_V     每个值乘以它的权重：a_j · v_j
explain-table-caption = 查询“{ $token }”与每个键的比较
explain-col-key = 键 j
explain-col-scaled = s_j × 缩放
explain-step-z = 把加权后的值相加：头的输出
explain-formula-z = z = Σ_j a_j · v_j   （{ $count } 个数）
explain-step-delta = 所有头合在一起：更新量 ΔE
explain-formula-delta = ΔE[{ $index }] = [z_1 | … | z_H] · W_O   （把每个头的 z 拼接起来，再投影回 { $count } 个数）
explain-step-residual = 注意力之后的残差流
explain-formula-residual = E[{ $index }] + ΔE[{ $index }]   （该 token 的向量，加上它收集到的信息）
explain-label-residual = E 加 delta E
explain-computing = 计算中…
explain-empty = 输入一些文本，即可跟随一个 token 走完整个公式。
explain-lines-label = 从每个查询 token（左）连向各个键（右）的线，浓淡取决于权重；所选查询的线会突出显示。下方表格列出相同的数字。
explain-lines-caption = 左：查询；右：键。线的不透明度等于其权重；点击左侧的词即可跟随它。
explain-row-note = “{ $token }”在这个头中的一行：最大权重 { $top }，熵 { $entropy } 比特（均匀的一行为 { $uniform }）。
explain-row-label = { $token } 的注意力权重
explain-scaling-legend = 缩放与温度
explain-scaling-note = 如果 q 和 k 的各分量相互独立、均值为 0、方差为 1，那么 q·k 的方差为 d_k：宽的头会产生很大的分数，而 softmax 中的指数会把大的差距变成全有或全无（梯度极小）。除以 √d_k 能把方差拉回到 1。把下面的分数乘上一个因子，看各行变得更尖锐（因子 > 1，更冷的 softmax）或更平坦（因子 < 1，更热的 softmax）。
explain-model-setting = ★ 这是模型的真实设置：因子 1，按 1/√d_k 缩放。
explain-not-model-setting = 这不是模型的设置：模型使用因子 1，并按 1/√d_k 缩放。后面的层不会重新计算；每个头显示的是它会关注什么。
explain-multiply = 将缩放后的分数乘以
explain-times = 乘以 { $factor }
explain-mark-model = ×1（模型本身）
explain-reset = 恢复模型的设置
explain-unscaled = 去掉 1/√d_k（把原始分数 q·k 直接送入 softmax）
explain-position-legend = 词序
explain-positional = 位置编码（教学模型）
explain-position-note = 注意力比较的是向量，而不是位置：没有位置编码时，打乱词序只会以同样的方式打乱 A 的行和列，“前一个词”头也就无法分辨哪个词在前。
explain-next-temperature = 下一个 token 的 softmax 温度
explain-next-temperature-note = （logits ÷ T：小于 1 更尖锐，大于 1 更平坦；1 是模型自身的值）

## 所有头

overview-label = 所有层和头；方向键移动选择
overview-knock-cell = 层 { $layer }，头 { $head }
overview-knock-cell-out = 层 { $layer }，头 { $head }：已消融
overview-knock-title-out = L{ $layer } · H{ $head }（已消融）
overview-knock-count = { $count ->
        [0] 未选择头
       *[other] 已选择 { $count } 个头
    }
overview-knock-tools = 头消融
overview-knock-mode = 消融头
overview-knock-how = 打开“消融头”并点击小图
overview-knock-run = 运行消融
overview-knock-clear = 清除
overview-caption-knockout = 消融模式：点击小图选择要移除的头（打叉），然后点“运行消融”；关闭该模式即可重新打开头。
overview-caption = 每个小图是一个头在这段文本上的注意力（行是查询）。点击小图或使用方向键，即可在所有视图中打开该头。
overview-scale-caption = 文本这么长时，小图中的每个单元格是一块 token 的平均权重，并以该小图最亮的单元格为基准绘制，以显出其模式；热力图中有每个权重。
overview-norms-caption = 按值加权：每个小图显示 ‖a·f(x)‖，每行相对于该行的最大值；精确数值见热力图的读数和导出文件。

## 3×4 计算示例

worked-cell-label = { $matrix } 第 { $row } 行第 { $column } 列
worked-seed-heading = seed 的做法：÷ √{ $width }（输入宽度）
worked-note = 三个宽度为 4 的输入，投影到宽度 3——即 seed 003 的计算示例。可修改任意数字；下方所有内容都会用模型所用的同一公式重新计算。
worked-reset = 恢复 seed 的数字
